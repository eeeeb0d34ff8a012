#!/usr/bin/env bash
# The tests under sanitizers, in build directories of their own (the main
# build stays uninstrumented):
#   scripts/sanitize.sh asan [build-dir]   ASan + UBSan, every unit test
#   scripts/sanitize.sh tsan [build-dir]   TSan, the tests of what threads share
#                                          (thread_shared_unit_tests, tests/CMakeLists.txt):
#                                          job queue, span queue, recorders, HTTP server
#   scripts/sanitize.sh jvm [build-dir [tests-build-dir]]
#                                          the agent built with ASan + UBSan, loaded
#                                          into real JVMs: the integration suite on
#                                          the newest JDK under /usr/lib/jvm, libasan
#                                          preloaded (JVM_FILTER narrows it, a gtest filter;
#                                          JVMSIGHT_TEST_JDKS picks other JDKs)
#   scripts/sanitize.sh otlp [build-dir [tests-build-dir]]
#                                          the OTLP plugin and both transports
#                                          built with ASan + UBSan: their unit
#                                          tests, then the transport tests in
#                                          real JVMs against the receivers
# jvm and otlp instrument what runs inside the JVM (the agent, its loader,
# the OTLP plugin) and take the integration tests, which only start JVMs
# and read what they serve, from the uninstrumented build (tests-build-dir,
# default build/, built from the same tree): compiling the suites under
# ASan cost about 4 minutes a run and found nothing the agent's own
# instrumentation does not (JVMSIGHT_TEST_AGENT and JVMSIGHT_TEST_LOADER
# point them at the instrumented libraries).
# asan, jvm and otlp build with the same flags into one directory (default
# build-address; SANITIZE_OTLP=OFF builds it without the OTLP plugin, and
# then otlp cannot run): what they share, the agent's libraries, compiles
# once, not three times (about 5 minutes each on 2 cores). Any report
# fails the run (halt_on_error, no recovery). ctest runs the first two
# (label "sanitize") and the last two (label "sanitize-jvm").
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
mode=${1:-}
case "$mode" in
  asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        unit_target=unit_tests ;;
  tsan) flags="-fsanitize=thread -fno-omit-frame-pointer"
        unit_target=thread_shared_unit_tests ;;
  jvm) flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
       # The suites that run the agent's own code paths, once each; left
       # out what differs only in the JVM's behaviour or repeats a path
       # (docs/TESTING.md, "The whole run's time"): GC pauses of Serial and
       # CMS (the paths of G1's and Parallel's, notifications on) and of
       # Shenandoah (Z's, notifications off), and the concurrent-cycle
       # suite; scrapes checked only for their names (Promtool,
       # MetricCatalogueScrape); the duty-cycled storm, which needs a storm
       # far above the sampling bound that ASan's slower callbacks cannot
       # make (a timing check); and Soak and VirtualSoak, which run Churn's
       # paths to 100,000 and a million threads. A new suite runs here
       # unless it is added to this list, with its reason.
       filter=${JVM_FILTER:--*DutyCycledStormMatchesTheJvmsCountsPerClass*:Jdks/Soak.*:Jdks/VirtualSoak.*:JdksAndCollectors/ConcurrentGc.*:JdksAndCollectors/GcPauses.*/*_Serial:JdksAndCollectors/GcPauses.*/*_ConcMarkSweep:JdksAndCollectors/GcPauses.*/*_Shenandoah:Jdks/Promtool.*:Jdks/MetricCatalogueScrape.*} ;;
  otlp) flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
        filter="*OtlpTransport*" ;;
  *) echo "usage: $0 asan|tsan|jvm|otlp [build-dir]" >&2; exit 2 ;;
esac
otlp=OFF default_dir=build-tsan
if [ "$mode" != tsan ]; then
  otlp=${SANITIZE_OTLP:-ON} default_dir=build-address
  if [ "$mode" = otlp ] && [ "$otlp" != ON ]; then
    echo "sanitize: otlp: SANITIZE_OTLP=$otlp builds no OTLP plugin to test" >&2
    exit 2
  fi
fi
dir=${2:-$default_dir}
case "$dir" in /*) ;; *) dir=$ROOT/$dir ;; esac
# -g1: line tables, all a report needs; full debug information took 40-60%
# longer to compile per file. -O1, as the sanitizers' own docs advise: the
# ASan stage built and ran in 332 s against 430 s at -O2. Test code
# compiles at -O0 over these (tests/CMakeLists.txt), here as everywhere.
cmake -S "$ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJVMSIGHT_OTLP=$otlp \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=$flags" "-DCMAKE_SHARED_LINKER_FLAGS=$flags" >/dev/null
if [ "$mode" = jvm ] || [ "$mode" = otlp ]; then
  tests_dir=${3:-$ROOT/build}
  case "$tests_dir" in /*) ;; *) tests_dir=$ROOT/$tests_dir ;; esac
  suite=$tests_dir/tests/integration_tests
  [ "$mode" = otlp ] && suite=$tests_dir/tests/otlp/otlp_integration_tests
  # Before the minutes of instrumented build, not after.
  if [ ! -x "$suite" ]; then
    echo "sanitize: $mode: no $suite: build the tests first (scripts/quickstart.sh build)" >&2
    exit 2
  fi
  inside_jvm=(jvmsight jvmsight_loader)
  [ "$otlp" = ON ] && inside_jvm+=(jvmsight-otlp)
  # The build's output goes to a log (shown if it fails), so a failing run's
  # output is the tests' and the reports, not thousands of build lines.
  build_quietly() {
    cmake --build "$dir" -j"${SANITIZE_JOBS:-2}" --target "$@" >"$dir/build-$mode.log" 2>&1 ||
      { tail -n 40 "$dir/build-$mode.log" >&2; echo "sanitize: $mode: build failed ($dir/build-$mode.log)" >&2; exit 1; }
  }
  if [ "$mode" = otlp ]; then
    build_quietly otlp_unit_tests "${inside_jvm[@]}"
    # Conversion, configuration, the gRPC wire helpers, the HTTP response reader
    # and the export worker, leaks checked (no JVM here).
    "$dir/tests/otlp/otlp_unit_tests" --gtest_brief=1
  else
    build_quietly "${inside_jvm[@]}"
    # One JDK under ASan, the newest (25 on CI): it takes the paths the
    # older ones take plus virtual threads', and a second JDK doubled the
    # stage (169 tests, about 9 minutes, against 88); every JDK runs the
    # uninstrumented suites.
    if [ -z "${JVMSIGHT_TEST_JDKS:-}" ]; then
      JVMSIGHT_TEST_JDKS=$(for home in /usr/lib/jvm/*/; do
        major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release" 2>/dev/null)
        if [ -n "$major" ]; then echo "$major ${home%/}"; fi
      done | sort -n | tail -n 1 | cut -d' ' -f2) || true
      export JVMSIGHT_TEST_JDKS
    fi
  fi
  # The JVM is not instrumented and lives on signals ASan would take: SEGV
  # (implicit null checks, safepoint polls), BUS and FPE are the JVM's.
  # libasan must come first in the JVM (java is not linked with it), hence
  # LD_PRELOAD; every child (java, jcmd, curl) inherits it. Reports go to
  # files, one per process, so a report from a JVM the test ends is kept.
  # scripts/asan-jvm.supp: what is the JVM's, each with its reason.
  reports=$dir/asan-reports-$mode
  check_reports() {
    compgen -G "$reports/*" >/dev/null || return 0
    echo "sanitize: $mode: sanitizer reports:" >&2
    head -n 60 "$reports"/* >&2
    exit 1
  }
  # The failed tests of a gtest JSON report, as one gtest filter.
  failed_tests() {
    python3 - "$1" <<'PY'
import json, sys
names = [f"{suite['name']}.{case['name']}" for suite in json.load(open(sys.argv[1]))["testsuites"]
         for case in suite["testsuite"] if case.get("failures")]
print(":".join(names))
PY
  }
  export JVMSIGHT_TEST_AGENT=$dir/agent/libjvmsight.so JVMSIGHT_TEST_LOADER=$dir/agent/libjvmsight-loader.so
  # Not the extra JDKs' roots: libasan is not inside them.
  export JVMSIGHT_JDK_ROOTS=$dir/no-jdk-roots
  rm -rf "$reports" && mkdir -p "$reports"
  export LD_PRELOAD
  LD_PRELOAD=$(gcc -print-file-name=libasan.so)
  # Leaks are not checked here (the unit run does that): at exit the JVM's
  # own mallocs, reachable only from memory LeakSanitizer does not scan (the
  # Java heap, metaspace, code cache), would be thousands of false reports,
  # and any suppression of libjvm.so frames would also hide ours, since
  # every agent thread and callback runs under JVM frames.
  export ASAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_sigfpe=0:allow_user_segv_handler=1:detect_leaks=0:halt_on_error=1:detect_stack_use_after_return=0:log_path=$reports/asan:suppressions=$ROOT/scripts/asan-jvm.supp
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan
  status=0
  "$suite" --gtest_filter="$filter" --gtest_brief=1 --gtest_output="json:$dir/results-$mode.json" || status=$?
  check_reports
  if [ "$status" != 0 ]; then
    # Any sanitizer report fails at once (above). A test that failed with no
    # report runs once more, alone: these are the suites' timing checks
    # (pauses drained, events counted within a bound) under ASan's slowdown,
    # and the uninstrumented run judges behaviour. Failing twice fails.
    failed=$(failed_tests "$dir/results-$mode.json")
    echo "sanitize: $mode: failed with no sanitizer report, run once more alone: $failed" >&2
    [ -n "$failed" ] || exit "$status"
    status=0
    "$suite" --gtest_filter="$failed" --gtest_brief=1 || status=$?
    check_reports
    [ "$status" = 0 ] || { echo "sanitize: $mode: integration tests failed twice (no sanitizer report): $failed" >&2; exit "$status"; }
    echo "sanitize: $mode: passed when run again (timing under ASan): $failed" >&2
  fi
  echo "sanitize: $mode: integration tests passed in ASan+UBSan JVMs, no report (filter $filter)"
  exit 0
fi
cmake --build "$dir" -j"${SANITIZE_JOBS:-2}" --target $unit_target
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
"$dir/tests/$unit_target" --gtest_brief=1
echo "sanitize: $mode: $unit_target passed"
