#!/usr/bin/env bash
# A whole /metrics response (every family, client_java's runtime families in
# both name generations included) at N live threads, against
# ThreadMXBean.getThreadInfo(getAllThreadIds()) in the same JVM, one JVM per
# JDK, JVMS times (each the median of its rounds; the table gives the median
# of the JVMs, field by field: one JVM's ratio moves 10-15% from run to run).
# The threads' names spread them over POOLS thread pools (past the
# thread_pools cap of 50: 50 pools and "other" in the pool families).
# Usage: bench/whole_scrape.sh [threads=10000] [rounds=15] [jvms=3] [pools=100]
source "$(dirname "$0")/common.sh"
THREADS=${1:-10000}
ROUNDS=${2:-15}
JVMS=${3:-3}
POOLS=${4:-100}
compile_bench
out=$(mktemp)
{
  echo "Command: \`bench/whole_scrape.sh $THREADS $ROUNDS $JVMS $POOLS\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)); $THREADS parked threads in $POOLS pools; medians of $JVMS JVMs, each the median of $ROUNDS rounds."
  echo
  echo "| JDK | live threads | getThreadInfo, all (ms) | whole /metrics over HTTP (ms) | agent thread (ms) | of which runtime families (ms) | response (bytes) | getThreadInfo / whole scrape | getThreadInfo CPU (ms) | scrape CPU (ms) | CPU ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  runs=$(mktemp)
  for _ in $(seq "$JVMS"); do
    tmp=$(mktemp -d)
    line=$("$jdk/bin/java" -Xss256k "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn" \
      -cp "$CLASSES" WholeScrapeBench "$THREADS" "$ROUNDS" "$tmp/port" "$POOLS" | grep '^RESULT')
    rm -rf "$tmp"
    echo "$(basename "$jdk"): $line"
    echo "$line" >>"$runs"
  done
  m() { field_median "$runs" "$1"; }
  mx=$(m mx_cpu_ms) cpu=$(m scrape_cpu_ms)
  echo "| $(basename "$jdk") | $(m live) | $(m mx_ms) | $(m http_ms) | $(m scrape_ms) | $(m runtime_ms) | $(m bytes) |" \
    "$(awk -v a="$(m mx_ms)" -v b="$(m http_ms)" 'BEGIN {printf "%.1f", a / b}')x | $mx | $cpu |" \
    "$(awk -v a="$mx" -v b="$cpu" 'BEGIN {printf "%.1f", a / b}')x |" >>"$out"
  rm -f "$runs"
done
write_section whole_scrape "$out"
rm -f "$out"
