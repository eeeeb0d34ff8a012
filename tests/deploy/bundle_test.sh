#!/usr/bin/env bash
# The portable bundle: built from the agent build dir, it is exactly
# deploy/image/bundle.list's files (the agent, its loader, the OTLP plugin and
# their libraries but glibc and the C++ runtime), stripped, with RUNPATH
# $ORIGIN, under the glibc floor, with SHA256SUMS (check_bundle.py); it serves
# HTTPS with its own OpenSSL. Whatever else the build dir holds stays out, a
# listed file missing or a dependency off the list fails the bundle, naming
# it; and check_bundle.py fails on what must not ship.
#   bundle_test.sh <source-dir> <agent-build-dir>
set -euo pipefail
src=$1 agent=$2
work=$(mktemp -d /tmp/jvmsight-bundle-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
check=(/usr/bin/python3 "$src/deploy/image/check_bundle.py")
bundle=("$src/deploy/image/bundle.sh")
listed=$(awk '!/^#/ && NF { print $1 }' "$src/deploy/image/bundle.list" | sort | tr '\n' ' ')

"${bundle[@]}" "$agent" "$work/bundle"
"${check[@]}" "$work/bundle"
[ "$(ls "$work/bundle" | grep -vx SHA256SUMS | tr '\n' ' ')" = "$listed" ] ||
  fail "the bundle holds $(ls "$work/bundle" | tr '\n' ' '), the list names $listed"
(cd "$work/bundle" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not match the files (sha256sum -c)"
! ls "$work/bundle" | grep -Eq '^lib(grpc|absl|protobuf\.)' || fail "the bundle carries grpc++ or full protobuf: $(ls "$work/bundle")"
echo "ok: the bundle is exactly bundle.list ($(ls "$work/bundle" | wc -l) files with SHA256SUMS, $(du -sh "$work/bundle" | cut -f1)), within the floor"

# HTTPS from the bundle: the agent finds the bundled OpenSSL 3 (its RUNPATH
# $ORIGIN), and a JVM serves /metrics over TLS with it (the program in
# source-file mode, which the agent serves like any application).
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

# bundle.sh from a build dir in other states: <why> <fragment of its error, or ""> [--leave-out name]
bundle_from() {
  local why=$1 expect=$2 out
  shift 2
  if out=$("${bundle[@]}" "$@" "$work/from" "$work/bundle-from" 2>&1); then
    [ -z "$expect" ] || fail "bundle.sh accepted $why: $out"
  else
    [ -n "$expect" ] || fail "bundle.sh failed on $why: $out"
    grep -qF -- "$expect" <<<"$out" || fail "bundle.sh failed on $why without saying '$expect': $out"
  fi
  echo "ok: $why: ${out##*$'\n'}"
}
rm -rf "$work/from" && cp -r "$agent" "$work/from" && cp "$agent/libjvmsight.so" "$work/from/libjvmsight-0.0.9.so"
bundle_from "a stale library in the build dir (left out)" ""
[ ! -e "$work/bundle-from/libjvmsight-0.0.9.so" ] || fail "a stale library of the build dir got into the bundle"
rm "$work/from/libjvmsight-otlp.so"
bundle_from "a build without the OTLP plugin" "libjvmsight-otlp.so is missing (CMake target jvmsight-otlp"
bundle_from "a build without the OTLP plugin, left out on purpose" "" --leave-out libjvmsight-otlp.so
"${check[@]}" "$work/bundle-from" 2>/dev/null && fail "check_bundle accepted a bundle without the OTLP plugin"
cp /usr/lib/x86_64-linux-gnu/libcurl.so.4 "$work/from/libjvmsight-otlp.so"
bundle_from "a plugin needing a library off the list" "which deploy/image/bundle.list does not name"
cp /usr/lib/x86_64-linux-gnu/libz.so.1 "$work/from/libjvmsight-otlp.so"
bundle_from "a plugin needing fewer libraries than listed" "nothing in the bundle needs it"

# What must not ship: <why> <fragment of check_bundle's error> <bundle>...
expect_rejected() {
  if out=$("${check[@]}" "${@:3}" 2>&1); then fail "check_bundle accepted $1"; fi
  grep -qF -- "$2" <<<"$out" || fail "check_bundle rejected $1 without saying '$2': $out"
  echo "ok: check_bundle rejects $1"
}
bad() { rm -rf "$work/bad" && cp -r "$work/bundle" "$work/bad"; }
rejects() { expect_rejected "$1" "$2" "$work/bad"; }
bad && cp "$agent/libjvmsight.so" "$work/bad/"
rejects "an unstripped agent" "carries debug sections"
bad && cp /lib/x86_64-linux-gnu/libstdc++.so.6 "$work/bad/" && patchelf --set-rpath '$ORIGIN' "$work/bad/libstdc++.so.6"
rejects "a library above the glibc floor" "needs GLIBC_2.36, above the floor GLIBC_2.34"
rejects "a file off the list" "libstdc++.so.6 is not in deploy/image/bundle.list"
bad && rm "$work/bad/libcrypto.so.3"
rejects "a missing dependency" "needs libcrypto.so.3, which is neither in the bundle"
rejects "a missing listed file" "libcrypto.so.3 is missing (deploy/image/bundle.list names it)"
bad && printf 'x' >>"$work/bad/libz.so.1"
rejects "a file that differs from SHA256SUMS" "libz.so.1 differs from its SHA256SUMS entry"
bad && cp "$work/bad/libjvmsight.so" "$work/bad/libjvmsight-loader.so"
rejects "a loader needing more than libc" "libjvmsight-loader.so needs more than libc.so.6"
bad && rm "$work/bad/libz.so.1"
expect_rejected "two architectures' bundles with different files" "the bundles carry different files" \
  "$work/bundle" "$work/bad"
echo "bundle_test: all passed"
