#!/usr/bin/env bash
# Deadlock check cost at N live threads with few blocked: jvmsight's
# background check (its own median over its last 32 checks) against
# ThreadMXBean.findDeadlockedThreads() timed in the same JVM, interleaved.
# Several runs per JDK; median of the per-run ratios. About 1 minute per run.
# Usage: bench/deadlock_check_bench.sh [threads] [runs] [java_home...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
threads=${1:-10000}
runs=${2:-3}
shift $(( $# > 2 ? 2 : $# )) || true
homes=("$@")
[ ${#homes[@]} -eq 0 ] && homes=(/usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64)
agent=${JVMSIGHT_AGENT:-$here/../build/agent/libjvmsight.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${homes[0]}/bin/javac" --release 17 -d "$work" "$here/java/DeadlockCheckBench.java" "$here/java/AgentMetrics.java"
for home in "${homes[@]}"; do
  [ -x "$home/bin/java" ] || continue
  echo "== $("$home/bin/java" -version 2>&1 | head -1), $threads threads, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
  for r in $(seq 1 "$runs"); do
    rm -f "$work/port"
    "$home/bin/java" -Xss256k -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1,portfile=$work/port" \
      DeadlockCheckBench "$threads" 40 "$work/port" 2>/dev/null | sed -n 's/^RESULT //p'
  done | tee "$work/r"
  python3 - "$work/r" <<'PY'
import statistics, sys
rows = [dict(x.split("=") for x in l.split()) for l in open(sys.argv[1]) if l.strip()]
mx = statistics.median(float(r["mx_median_ms"]) for r in rows)
ag = statistics.median(float(r["agent_median_ms"]) for r in rows)
cpu = statistics.median(float(r["agent_cpu_median_ms"]) for r in rows)
print(f"median of runs: findDeadlockedThreads {mx:.3f} ms (stop-the-world), jvmsight check {ag:.3f} ms wall "
      f"({cpu:.3f} ms CPU), ratio {statistics.median(float(r['ratio']) for r in rows):.1f}x wall, {mx / cpu:.1f}x vs CPU")
PY
done
