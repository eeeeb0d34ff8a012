#!/usr/bin/env bash
# libFuzzer targets (fuzz/), built with Debian's clang 14 in a build directory
# of their own (the main build stays gcc), with ASan and UBSan.
#
#   scripts/fuzz.sh build [build-dir]                   configure + build every target
#   scripts/fuzz.sh run [build-dir] <target> <seconds> [extra libFuzzer flags]
#   scripts/fuzz.sh all [build-dir] [seconds]           build, then run each target
#
# build-dir defaults to build-fuzz. A run starts from the seeds in
# fuzz/corpus/<target> (read only: new inputs go to a temporary corpus) and
# with the dictionary fuzz/<target>.dict when there is one, stops
# after <seconds>, and fails on any crash, leak, sanitizer report, timeout or
# memory above the RSS limit; the reproducer is left in the build dir
# (crash-*, leak-*, oom-*, timeout-*). ctest runs it with label "fuzz".
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGETS=(options_fuzz reports_fuzz prometheus_text_fuzz otlp_env_fuzz otlp_response_fuzz http_server_fuzz
  admission_review_fuzz)
RSS_LIMIT_MB=${FUZZ_RSS_LIMIT_MB:-1024}
MAX_LEN=${FUZZ_MAX_LEN:-4096}
mode=${1:-}
dir=${2:-build-fuzz}
case "$dir" in /*) ;; *) dir=$ROOT/$dir ;; esac

build() {
  for tool in clang clang++; do
    command -v "$tool" >/dev/null ||
      { echo "fuzz: $tool is missing (Debian: apt-get install clang libclang-rt-14-dev)" >&2; exit 1; }
  done
  CC=clang CXX=clang++ cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJVMSIGHT_FUZZ=ON \
    -DJVMSIGHT_BUILD_TESTS=OFF -DJVMSIGHT_OTLP=OFF >/dev/null
  cmake --build "$dir" -j"${FUZZ_JOBS:-2}" --target fuzz_targets
}

run() {  # <target> <seconds> [flags...]
  local target=$1 seconds=$2
  shift 2
  local exe=$dir/fuzz/$target
  [ -x "$exe" ] || { echo "fuzz: $exe is not built (scripts/fuzz.sh build $dir)" >&2; exit 1; }
  local corpus
  corpus=$(mktemp -d "/tmp/jvmsight-fuzz-$target.XXXXXX")
  trap 'rm -rf "$corpus"' RETURN
  local seeds=()
  [ -d "$ROOT/fuzz/corpus/$target" ] && seeds=("$ROOT/fuzz/corpus/$target")
  local dict=()
  [ -f "$ROOT/fuzz/$target.dict" ] && dict=(-dict="$ROOT/fuzz/$target.dict")
  # halt_on_error: UBSan findings fail the run as ASan's do.
  (cd "$dir" && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "$exe" -max_total_time="$seconds" -rss_limit_mb="$RSS_LIMIT_MB" -max_len="$MAX_LEN" -timeout=10 \
    -print_final_stats=1 "${dict[@]}" "$@" "$corpus" "${seeds[@]}")
}

case "$mode" in
  build) build ;;
  run)
    [ $# -ge 4 ] || { echo "usage: $0 run <build-dir> <target> <seconds> [flags]" >&2; exit 2; }
    shift 2
    run "$@"
    ;;
  all)
    build
    for t in "${TARGETS[@]}"; do run "$t" "${3:-15}"; done
    ;;
  *) echo "usage: $0 build|run|all [build-dir] ..." >&2; exit 2 ;;
esac
