#!/usr/bin/env bash
# How far duty-cycled contention events put each lock class from the JVM's
# own count. The test fixture TwoLockStorm runs A threads on one lock class
# and B on another for D ms, far above the contention_sampling bound, then
# prints the JVM's per-group blocked counts (ThreadInfo.getBlockedCount);
# the agent (default options) is scraped once its duty cycling has ended
# (its totals are then flushed to the JVM's count). Per storm length:
# each class's error against its JVM count, and the total's, over RUNS
# JVMs per JDK (median and max). Rewrites the contention_attribution
# section of docs/BENCHMARKS.md (NO_WRITE=1: print only).
# Usage: bench/attribution_bench.sh [runs=5] ["6000 30000" storm lengths, ms]
source "$(dirname "$0")/common.sh"
RUNS=${1:-5}
LENGTHS=${2:-6000 30000}
FIXTURES=$BUILD/tests/java-classes
[ -f "$FIXTURES/TwoLockStorm.class" ] || { echo "attribution: build the tests first (no $FIXTURES)" >&2; exit 1; }

# one <jdk> <ms>: prints "big_error small_error total_error entries_per_s" (errors as signed fractions)
one() {
  local jdk=$1 ms=$2 work pid port line body
  work=$(mktemp -d)
  mkfifo "$work/in"
  "$jdk/bin/java" "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$work/port,log=warn" -cp "$FIXTURES" \
    TwoLockStorm 6 2 "$ms" <"$work/in" >"$work/out" 2>"$work/err" &
  pid=$!
  exec {keep}>"$work/in"  # the fixture serves commands on stdin until it closes
  for _ in $(seq $((ms / 100 + 600))); do grep -q '^STORM ' "$work/out" 2>/dev/null && break; sleep 0.1; done
  line=$(grep '^STORM ' "$work/out" || true)
  port=$(cat "$work/port" 2>/dev/null || true)
  # While duty cycling the totals are as of the last cycle's end: wait for
  # the events to be always on again (at most two cycles of 8 s).
  for _ in $(seq 300); do
    curl -sf "http://127.0.0.1:$port/metrics" >"$work/metrics" || true
    grep -q '^jvmsight_monitor_contention_sampling_interval 1$' "$work/metrics" && break
    sleep 0.1
  done
  exec {keep}>&-
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
  local status=0
  if [ -n "$line" ] && [ -s "$work/metrics" ]; then
    python3 - "$line" "$work/metrics" "$ms" <<'PY' || status=1
import re, sys
truth = dict(kv.split("=") for kv in sys.argv[1].split()[1:])
big, small = float(truth["big"]), float(truth["small"])
seen, total = {}, 0.0
for line in open(sys.argv[2]):
    m = re.match(r'jvmsight_monitor_contended_enter_total\{lock_class="([^"]*)"\} (\S+)', line)
    if m:
        seen[m.group(1)] = float(m.group(2))
        total += float(m.group(2))
b, s = seen.get("TwoLockStorm$BigLock", 0.0), seen.get("TwoLockStorm$SmallLock", 0.0)
rate = (big + small) / (float(sys.argv[3]) / 1000)
print(f"{(b - big) / big:.4f} {(s - small) / small:.4f} {(total - big - small) / (big + small):.4f} {rate:.0f}")
PY
  else
    echo "attribution: a run failed: $(tail -3 "$work/err")" >&2
    status=1
  fi
  rm -rf "$work"
  return $status
}

stats() {  # fractions on stdin -> "median |x| % / max |x| %"
  awk '{x = $1 < 0 ? -$1 : $1; print x}' | sort -g |
    awk '{v[NR] = $1} END {printf "%.1f%% / %.1f%%", 100 * v[int((NR + 1) / 2)], 100 * v[NR]}'
}

out=$(mktemp)
{
  echo "Command: \`bench/attribution_bench.sh $RUNS \"$LENGTHS\"\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)). TwoLockStorm: 6 threads on one lock class, 2 on another, default options" \
    "(duty cycling above 1,000 contended entries a second); $RUNS JVMs per cell; errors against the JVM's blocked counts."
  echo
  echo "| JDK | storm | runs | contended entries/s (JVM, median) | BigLock error, median / max | SmallLock error, median / max | total error, median / max |"
  echo "|---|---|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  for ms in $LENGTHS; do
    results=$(mktemp)
    for _ in $(seq "$RUNS"); do one "$jdk" "$ms" >>"$results" || true; done
    n=$(wc -l <"$results")
    printf '| %s | %s s | %s | %s | %s | %s | %s |\n' "$(basename "$jdk")" "$((ms / 1000))" "$n" \
      "$(cut -d' ' -f4 "$results" | median)" \
      "$(cut -d' ' -f1 "$results" | stats)" "$(cut -d' ' -f2 "$results" | stats)" \
      "$(cut -d' ' -f3 "$results" | stats)" | tee -a "$out"
    rm -f "$results"
  done
done
[ "${NO_WRITE:-0}" = 1 ] || write_section contention_attribution "$out"
cat "$out"
rm -f "$out"
