#!/usr/bin/env bash
# Deadlock check cost at N live threads: jvmsight's background check (its
# own median over its last 32 checks) against ThreadMXBean.findDeadlockedThreads()
# timed in the same JVM, interleaved, in each thread-state mix (idle: few
# blocked; pileup: a quarter each sleeping, blocked on one monitor, parked on
# one lock, in Object.wait). RUNS JVMs per JDK and mix; the ratio's median
# and p10 across runs (issue #11 asks the p10 to reach 10x). About 40 s per
# run. Rewrites the deadlock_check section of docs/BENCHMARKS.md (NO_WRITE=1:
# print only).
# Usage: bench/deadlock_check_bench.sh [threads=10000] [runs=5] ["idle pileup"] [java_home...]
source "$(dirname "$0")/common.sh"
AGENT=${JVMSIGHT_AGENT:-$AGENT}
THREADS=${1:-10000}
RUNS=${2:-5}
MIXES=${3:-idle pileup}
shift $(($# > 3 ? 3 : $#)) || true
homes=("$@")
[ ${#homes[@]} -eq 0 ] && mapfile -t homes < <(bench_jdks)
compile_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
md=$work/md
{
  echo "Command: \`bench/deadlock_check_bench.sh $THREADS $RUNS \"$MIXES\"\` ($(date -u +%Y-%m-%d), $(nproc) cores;" \
    "load average before: $(cut -d' ' -f1-3 /proc/loadavg)). $RUNS JVMs per JDK and mix, each 40 rounds of one" \
    "findDeadlockedThreads every 500 ms; ratio per run = its median / the check's median (wall) over its last 32 checks."
  echo
  echo "| JDK | mix | findDeadlockedThreads, median of runs (ms) | check, median of runs (ms wall) | check CPU, median (ms) | check CPU, mean of all checks (ms) | ratio, median of runs | ratio, p10 of runs | runs under 10x |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$md"
for home in "${homes[@]}"; do
  [ -x "$home/bin/java" ] || continue
  for mix in $MIXES; do
    : >"$work/r"
    for r in $(seq 1 "$RUNS"); do
      rm -f "$work/port"
      "$home/bin/java" -Xss256k -cp "$CLASSES" "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$work/port" \
        DeadlockCheckBench "$THREADS" 40 "$work/port" "$mix" 2>"$work/err" | sed -n 's/^RESULT //p' | tee -a "$work/r" ||
        echo "run $r failed: $(tail -1 "$work/err")" >&2
    done
    python3 - "$work/r" "$(basename "$home")" "$mix" >>"$md" <<'PY'
import statistics, sys
rows = [dict(x.split("=") for x in l.split()) for l in open(sys.argv[1]) if l.strip()]
if not rows:
    print(f"| {sys.argv[2]} | {sys.argv[3]} | failed | | | | | | |"); sys.exit()
med = lambda k: statistics.median(float(r[k]) for r in rows)
ratios = sorted(float(r["ratio"]) for r in rows)
# p10 with linear interpolation between the sorted runs
pos = 0.1 * (len(ratios) - 1)
p10 = ratios[int(pos)] + (ratios[min(int(pos) + 1, len(ratios) - 1)] - ratios[int(pos)]) * (pos - int(pos))
under = sum(1 for x in ratios if x < 10)
print(f"| {sys.argv[2]} | {sys.argv[3]} | {med('mx_median_ms'):.3f} | {med('agent_median_ms'):.3f} | "
      f"{med('agent_cpu_median_ms'):.3f} | {med('agent_cpu_mean_ms'):.3f} | {statistics.median(ratios):.1f}x | {p10:.1f}x | {under} of {len(ratios)} |")
PY
    tail -1 "$md"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$md"
cat "$md"
[ "${NO_WRITE:-0}" = 1 ] || write_section deadlock_check "$md"
