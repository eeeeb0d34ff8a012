#!/usr/bin/env bash
# The portable bundle: built from the agent build dir, it holds the agent and
# every library it needs but glibc and the C++ runtime, stripped, with
# RUNPATH $ORIGIN, under the glibc floor (check_bundle.py); any further .so of
# the agent dir (libjvmsight-otlp.so and its transports) travels with its own closure;
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
expected=(libjvmsight-loader.so libjvmsight.so libcivetweb.so.1 libprometheus-cpp-core.so.1.0)
# The OTLP plugin, when built, travels with its transports and their closures
# (protobuf-lite, nghttp2, OpenSSL), and no grpc++ closure.
[ -f "$agent/libjvmsight-otlp.so" ] && expected+=(libjvmsight-otlp.so libjvmsight-otlp-grpc.so libjvmsight-otlp-http.so
  libnghttp2.so.14 libprotobuf-lite.so.32 libssl.so.3)
for lib in "${expected[@]}"; do
  [ -f "$work/bundle/$lib" ] || fail "$lib missing; bundle holds: $(ls "$work/bundle")"
done
! ls "$work/bundle" | grep -Eq '^lib(grpc|absl|protobuf\.)' || fail "the bundle carries grpc++ or full protobuf: $(ls "$work/bundle")"
# Without the plugin: the loader, the agent, its two libraries, and the
# HTTPS stand-ins (tls/) with OpenSSL 3.
[ -f "$agent/libjvmsight-otlp.so" ] || [ "$(ls "$work/bundle" | tr '\n' ' ')" = \
  "libcivetweb.so.1 libcrypto.so.3 libjvmsight-loader.so libjvmsight.so libprometheus-cpp-core.so.1.0 libssl.so.3 tls " ] ||
  fail "without the OTLP plugin the bundle holds more than the agent needs: $(ls "$work/bundle")"
# The loader must load wherever a JVM does: libc alone (check_bundle.py has
# just held it to the glibc floor).
needed=$(readelf -dW "$work/bundle/libjvmsight-loader.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
[ "$needed" = "libc.so.6 " ] || fail "the loader needs more than libc: $needed"
echo "ok: the loader needs only libc.so.6"
echo "ok: agent bundle within the floor ($(ls "$work/bundle" | wc -l) files, $(du -sh "$work/bundle" | cut -f1))"

# HTTPS from the bundle: the stand-ins in tls/ find the bundled OpenSSL 3
# (RUNPATH $ORIGIN/..), and a JVM serves /metrics over TLS with them (the
# program in source-file mode, which the agent serves like any application).
if [ -d "$work/bundle/tls" ]; then
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
  kill $jvm 2>/dev/null || true
  wait $jvm 2>/dev/null || true
  echo "ok: the bundle serves /metrics over HTTPS"
fi

# A second agent library with more dependencies (prometheus-cpp's pull
# library stands in for an OTLP exporter): bundled with its whole closure.
mkdir "$work/agent2"
cp "$agent/libjvmsight.so" "$work/agent2/"
cp /lib/x86_64-linux-gnu/libprometheus-cpp-pull.so.1.0 "$work/agent2/libjvmsight-otlp.so"
"$src/deploy/image/bundle.sh" "$work/agent2" "$work/bundle2"
"${check[@]}" "$work/bundle2"
for lib in libjvmsight-otlp.so libcivetweb-cpp.so.1 libz.so.1; do
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
rm -rf "$work/bad" && cp -r "$work/bundle" "$work/bad" && rm "$work/bad/libcivetweb.so.1"
expect_rejected "a missing dependency" "needs libcivetweb.so.1, which is neither in the bundle"
echo "bundle_test: all passed"
