#!/usr/bin/env bash
# The unit tests under sanitizers, each configuration in a build directory of
# its own (the main build stays uninstrumented):
#   scripts/sanitize.sh asan [build-dir]   ASan + UBSan, every unit test
#   scripts/sanitize.sh tsan [build-dir]   TSan, the tests of what threads share:
#                                          job queue, span queue, recorders, HTTP server
# Any report fails the run (halt_on_error, no recovery). ctest runs both
# (label "sanitize").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
mode=${1:-}
case "$mode" in
  asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        filter="*" ;;
  tsan) flags="-fsanitize=thread -fno-omit-frame-pointer"
        # What more than one thread touches: the agent thread's job queue,
        # the span queue, the event recorders (callbacks on Java threads,
        # readers on the agent thread), and the HTTP server's workers.
        filter="JobQueue*:Wakeup*:SpanQueue*:GcPauseRecorder*:MonitorContention*:ContentionSampler*:ContentionDutyCycle*:ContendedWaitRing*:HttpServer*:HttpSecurity*:ThreadStamp*" ;;
  *) echo "usage: $0 asan|tsan [build-dir]" >&2; exit 2 ;;
esac
dir=${2:-build-$mode}
case "$dir" in /*) ;; *) dir=$ROOT/$dir ;; esac
cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJVMSIGHT_OTLP=OFF \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" >/dev/null
cmake --build "$dir" -j"${SANITIZE_JOBS:-2}" --target unit_tests
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
"$dir/tests/unit_tests" --gtest_filter="$filter" --gtest_brief=1
echo "sanitize: $mode: unit tests passed (filter $filter)"
