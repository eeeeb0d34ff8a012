#!/usr/bin/env bash
# Contention events cost: throughput of a contention-heavy workload with no
# agent, with jvmsight, and with a JFR recording of jdk.JavaMonitorEnter at
# threshold 0; runs interleaved (A B C A B C ...) so machine noise hits all
# alike; medians and ratios to no-agent. About 2 minutes.
# Usage: bench/contention_bench.sh [java_home] [rounds] [threads] [locks]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
java_home=${1:-/usr/lib/jvm/java-17-openjdk-amd64}
rounds=${2:-5}
threads=${3:-16}
locks=${4:-2}
agent=${JVMSIGHT_AGENT:-$here/../build/agent/libjvmsight.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java_home/bin/javac" -d "$work" "$here/java/ContentionBench.java"
args=(ContentionBench "$threads" "$locks" 2000 4000 100 100 yield)
run() {
  case $1 in
    none)  "$java_home/bin/java" -cp "$work" "${args[@]}" ;;
    agent) "$java_home/bin/java" -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1" "${args[@]}" 2>/dev/null ;;
    jfr)   "$java_home/bin/java" -cp "$work" \
             "-XX:StartFlightRecording=filename=$work/rec.jfr,settings=$here/monitor_enter.jfc" "${args[@]}" 2>/dev/null ;;
  esac | sed -n 's/^RESULT //p'
}
echo "java: $("$java_home/bin/java" -version 2>&1 | head -1); $threads threads on $locks locks; $rounds rounds; $(nproc) CPUs"
for r in $(seq 1 "$rounds"); do
  for c in none agent jfr; do echo "$c $(run $c)"; done
done | tee "$work/results"
python3 - "$work/results" <<'PY'
import statistics, sys
ops, blocked = {}, {}
for line in open(sys.argv[1]):
    conf, *kv = line.split()
    d = dict(x.split("=") for x in kv)
    ops.setdefault(conf, []).append(float(d["ops_per_s"]))
    blocked.setdefault(conf, []).append(float(d["blocked_per_s"]))
base = statistics.median(ops["none"])
for conf in ("none", "agent", "jfr"):
    m = statistics.median(ops[conf])
    print(f"{conf:6s} median {m:14,.0f} ops/s  ratio {m / base:.4f}  ({(m / base - 1) * 100:+.2f}%)  "
          f"contended entries {statistics.median(blocked[conf]):,.0f}/s")
PY
