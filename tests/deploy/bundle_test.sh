#!/usr/bin/env bash
# The portable bundle: built from the agent build dir, it holds the agent and
# every library it needs but glibc and the C++ runtime, stripped, with
# RUNPATH $ORIGIN, under the glibc floor (check_bundle.py); any further .so of
# the agent dir (libjvmsight-otlp.so) travels with its own closure;
# and the floor check does fail on what must not ship.
#   bundle_test.sh <source-dir> <agent-build-dir>
set -euo pipefail
src=$1 agent=$2
work=$(mktemp -d /tmp/jvmsight-bundle-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
check=(/usr/bin/python3 "$src/deploy/image/check_bundle.py")

"$src/deploy/image/bundle.sh" "$agent" "$work/bundle"
"${check[@]}" "$work/bundle"
expected=(libjvmsight-loader.so libjvmsight.so libssl.so.3 libcrypto.so.3)
# The OTLP plugin, when built, travels with its closure (protobuf-lite,
# nghttp2, OpenSSL), and no grpc++ closure.
[ -f "$agent/libjvmsight-otlp.so" ] && expected+=(libjvmsight-otlp.so libnghttp2.so.14 libprotobuf-lite.so.32 libssl.so.3)
for lib in "${expected[@]}"; do
  [ -f "$work/bundle/$lib" ] || fail "$lib missing; bundle holds: $(ls "$work/bundle")"
done
! ls "$work/bundle" | grep -Eq '^lib(grpc|absl|protobuf\.)' || fail "the bundle carries grpc++ or full protobuf: $(ls "$work/bundle")"
# Without the plugin: the loader, the agent (which links no library beyond
# glibc and the C++ runtime), and OpenSSL 3, which it loads for HTTPS.
[ -f "$agent/libjvmsight-otlp.so" ] || [ "$(ls "$work/bundle" | tr '\n' ' ')" = \
  "libcrypto.so.3 libjvmsight-loader.so libjvmsight.so libssl.so.3 " ] ||
  fail "without the OTLP plugin the bundle holds more than the agent needs: $(ls "$work/bundle")"
# The loader must load wherever a JVM does: libc alone (check_bundle.py has
# just held it to the glibc floor).
needed=$(readelf -dW "$work/bundle/libjvmsight-loader.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so.6 " ] || fail "the loader needs more than libc: $needed"
echo "ok: the loader needs only libc.so.6"
echo "ok: agent bundle within the floor ($(ls "$work/bundle" | wc -l) files, $(du -sh "$work/bundle" | cut -f1))"

# HTTPS from the bundle: the agent finds the bundled OpenSSL 3 (its RUNPATH
# $ORIGIN), and a JVM serves /metrics over TLS with it (the program in
# source-file mode, which the agent serves like any application).
if [ -f "$work/bundle/libssl.so.3" ]; then
  java=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
  /usr/bin/openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
  printf 'class Idle { public static void main(String[] a) throws Exception { Thread.sleep(60_000); } }\n' >"$work/Idle.java"
  opts="port=0,host=127.0.0.1,portfile=$work/port,tls_cert_file=$work/cert.pem,tls_key_file=$work/key.pem"
  "$java" "-agentpath:$work/bundle/libjvmsight-loader.so=$opts" "$work/Idle.java" 2>"$work/jvm.err" &
  jvm=$!
  trap 'kill $jvm 2>/dev/null || true; rm -rf "$work"' EXIT
  for _ in $(seq 300); do [ -s "$work/port" ] && break; sleep 0.1; done
  [ -s "$work/port" ] || fail "the bundled agent did not start HTTPS: $(cat "$work/jvm.err")"
  body=$(curl -sf --cacert "$work/cert.pem" "https://127.0.0.1:$(cat "$work/port")/metrics") ||
    fail "no /metrics over HTTPS from the bundle: $(cat "$work/jvm.err")"
  grep -q '^jvm_threads_current ' <<<"$body" || fail "the HTTPS answer is not the metrics: ${body:0:200}"
  grep -q " $work/bundle/libssl.so.3\$" "/proc/$jvm/maps" ||
    fail "the JVM serves HTTPS with an OpenSSL from outside the bundle: $(grep libssl "/proc/$jvm/maps" | head -1)"
  kill $jvm 2>/dev/null || true
  wait $jvm 2>/dev/null || true
  echo "ok: the bundle serves /metrics over HTTPS"
fi

# A second agent library with a dependency (protobuf, which needs zlib,
# stands in for an OTLP exporter): bundled with its closure.
mkdir "$work/agent2"
cp "$agent/libjvmsight.so" "$work/agent2/"
cp /lib/x86_64-linux-gnu/libprotobuf.so.32 "$work/agent2/libjvmsight-otlp.so"
"$src/deploy/image/bundle.sh" "$work/agent2" "$work/bundle2"
"${check[@]}" "$work/bundle2"
for lib in libjvmsight-otlp.so libz.so.1; do
  [ -f "$work/bundle2/$lib" ] || fail "$lib missing from the bundle of a second agent library"
done
echo "ok: a further agent library is bundled with its dependencies"

# What must not ship: debug info, a wrong RUNPATH, Debian's libstdc++ (glibc 2.36).
expect_rejected() {  # <why> <pattern>
  if out=$("${check[@]}" "$work/bad" 2>&1); then fail "check_bundle accepted $1"; fi
  grep -q -- "$2" <<<"$out" || fail "check_bundle rejected $1 without saying '$2': $out"
  echo "ok: check_bundle rejects $1"
}
cp -r "$work/bundle" "$work/bad" && cp "$agent/libjvmsight.so" "$work/bad/"
expect_rejected "an unstripped agent" "carries debug sections"
rm -rf "$work/bad" && cp -r "$work/bundle" "$work/bad" && cp /lib/x86_64-linux-gnu/libstdc++.so.6 "$work/bad/"
patchelf --set-rpath '$ORIGIN' "$work/bad/libstdc++.so.6"
expect_rejected "a library above the glibc floor" "needs GLIBC_2.36, above the floor GLIBC_2.34"
rm -rf "$work/bad" && cp -r "$work/bundle" "$work/bad" && rm "$work/bad/libcrypto.so.3"
expect_rejected "a missing dependency" "needs libcrypto.so.3, which is neither in the bundle"
echo "bundle_test: all passed"
