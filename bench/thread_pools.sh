#!/usr/bin/env bash
# What the thread pool families cost at N threads: the agent's own threads'
# CPU per second while scraped every second, with the pool families on
# (thread_pools=50) and off (thread_pools=0), interleaved, one JVM each per
# round, on every JDK; and the background readings of the pools' names and
# CPU times in the window, with what they cost (the target: within 0.1% of
# a core, 1 ms per second). The window should hold a reading or two: at
# 10,000 threads one runs every 17-50 s on JDK 11+ (every half hour on
# JDK 8, whose reading then shows only as the last one's cost). About
# (SECONDS + 25) s per JVM: 2 x JVMS JVMs per JDK, about 14 minutes on five
# JDKs with the defaults.
# Usage: bench/thread_pools.sh [threads=10000] [pools=100] [seconds=60] [jvms=1]
source "$(dirname "$0")/common.sh"
THREADS=${1:-10000}
POOLS=${2:-100}
SECONDS_EACH=${3:-60}
JVMS=${4:-1}
compile_bench
out=$(mktemp)
{
  echo "Command: \`bench/thread_pools.sh $THREADS $POOLS $SECONDS_EACH $JVMS\` ($(date -u +%Y-%m-%d), $(nproc) cores," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)); $THREADS parked threads in $POOLS pools, a scrape a second for" \
    "$SECONDS_EACH s after 15 s of warm-up; medians of $JVMS JVMs per mode."
  echo
  echo "| JDK | live threads | agent CPU, pools on (ms/s) | agent CPU, pools off (ms/s) | the pool families in all (% of a core) | readings in the window | their CPU (% of a core) | last reading's CPU (ms) | readings' interval (s) | oldest CPU served (s) |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  on=$(mktemp) off=$(mktemp)
  for _ in $(seq "$JVMS"); do
    for mode in 50 0; do
      tmp=$(mktemp -d)
      line=$("$jdk/bin/java" -Xss256k \
        "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn,thread_pools=$mode" \
        -cp "$CLASSES" ThreadPoolCpuBench "$THREADS" "$POOLS" "$SECONDS_EACH" "$tmp/port" | grep '^RESULT')
      rm -rf "$tmp"
      echo "$(basename "$jdk") thread_pools=$mode: $line"
      if [ "$mode" = 0 ]; then echo "$line" >>"$off"; else echo "$line" >>"$on"; fi
    done
  done
  m() { field_median "$on" "$1"; }
  cpu_on=$(m agent_cpu_ms_per_s) cpu_off=$(field_median "$off" agent_cpu_ms_per_s) refresh=$(m refresh_ms)
  # BackgroundRefresh(5 s, 1500): every max(5 s, 1500 x the last reading's CPU).
  echo "| $(basename "$jdk") | $(m live) | $cpu_on | $cpu_off |" \
    "$(awk -v a="$cpu_on" -v b="$cpu_off" 'BEGIN {printf "%.3f", (a - b) / 10}') | $(m readings) |" \
    "$(awk -v r="$(m readings_ms_per_s)" 'BEGIN {printf "%.3f", r / 10}') | $refresh |" \
    "$(awk -v r="$refresh" 'BEGIN {i = 1.5 * r; if (i < 5) i = 5; printf "%.1f", i}') | $(m max_age_s) |" >>"$out"
  rm -f "$on" "$off"
done
write_section thread_pools "$out"
rm -f "$out"
