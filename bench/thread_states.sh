#!/usr/bin/env bash
# Thread-state collection at N live threads: the agent's collector vs
# ThreadMXBean.getThreadInfo(getAllThreadIds()), side by side in one JVM per
# JDK. Usage: bench/thread_states.sh [threads=10000] [rounds=15]
source "$(dirname "$0")/common.sh"
THREADS=${1:-10000}
ROUNDS=${2:-15}
compile_bench
out=$(mktemp)
{
  echo "Command: \`bench/thread_states.sh $THREADS $ROUNDS\` ($(date -u +%Y-%m-%d), $(nproc) cores)."
  echo
  echo "| JDK | live threads | ThreadMXBean.getThreadInfo (median ms) | jvmsight collector (median ms) | ratio |"
  echo "|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  tmp=$(mktemp -d)
  line=$("$jdk/bin/java" -Xss256k "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn" \
    -cp "$CLASSES" ThreadStatesBench "$THREADS" "$ROUNDS" "$tmp/port" | grep '^RESULT')
  rm -rf "$tmp"
  echo "$(basename "$jdk"): $line"
  eval "$(echo "$line" | tr ' ' '\n' | grep '=' | sed 's/^/r_/')"
  echo "| $(basename "$jdk") | $r_live | $r_mx_ms | $r_agent_ms | ${r_ratio}x |" >>"$out"
done
write_section thread_states "$out"
rm -f "$out"
