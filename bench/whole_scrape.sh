#!/usr/bin/env bash
# A whole /metrics response (every family, client_java's runtime families in
# both name generations included) at N live threads, against
# ThreadMXBean.getThreadInfo(getAllThreadIds()) in the same JVM, one JVM per
# JDK. Usage: bench/whole_scrape.sh [threads=10000] [rounds=15]
source "$(dirname "$0")/common.sh"
THREADS=${1:-10000}
ROUNDS=${2:-15}
compile_bench
out=$(mktemp)
{
  echo "Command: \`bench/whole_scrape.sh $THREADS $ROUNDS\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)); $THREADS parked threads; medians of $ROUNDS rounds."
  echo
  echo "| JDK | live threads | getThreadInfo, all (ms) | whole /metrics over HTTP (ms) | agent thread (ms) | of which runtime families (ms) | response (bytes) | getThreadInfo / whole scrape | getThreadInfo CPU (ms) | scrape CPU (ms) | CPU ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  tmp=$(mktemp -d)
  line=$("$jdk/bin/java" -Xss256k "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn" \
    -cp "$CLASSES" WholeScrapeBench "$THREADS" "$ROUNDS" "$tmp/port" | grep '^RESULT')
  rm -rf "$tmp"
  echo "$(basename "$jdk"): $line"
  eval "$(echo "$line" | tr ' ' '\n' | grep '=' | sed 's/^/r_/')"
  echo "| $(basename "$jdk") | $r_live | $r_mx_ms | $r_http_ms | $r_scrape_ms | $r_runtime_ms | $r_bytes | ${r_ratio}x | $r_mx_cpu_ms | $r_scrape_cpu_ms | ${r_cpu_ratio}x |" >>"$out"
done
write_section whole_scrape "$out"
rm -f "$out"
