#!/usr/bin/env bash
# JVM exit with and without the agent, interleaved runs, medians:
#  1. a trivial program's whole run (start + exit), without and with the agent;
#  2. with scrapes in flight: time from the program's last line to process exit.
# Usage: bench/exit_time.sh [runs=15]
source "$(dirname "$0")/common.sh"
RUNS=${1:-15}
compile_bench
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
out=$(mktemp)
{
  echo "Command: \`bench/exit_time.sh $RUNS\` ($(date -u +%Y-%m-%d), $(nproc) cores, $RUNS interleaved runs each, medians)."
  echo
  echo "| JDK | Hello, no agent (ms) | Hello, agent (ms) | ratio | last line to exit, no agent (ms) | last line to exit, agent + 4 scrapers (ms) |"
  echo "|---|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  java=$jdk/bin/java
  plain=() agent=() exit_plain=() exit_agent=()
  for i in $(seq "$RUNS"); do
    t=$(date +%s%N); "$java" -cp "$CLASSES" Hello >/dev/null; plain+=("$(ms "$t")")
    t=$(date +%s%N); "$java" "-agentpath:$AGENT=port=0,host=127.0.0.1,log=warn" -cp "$CLASSES" Hello >/dev/null; agent+=("$(ms "$t")")
    for mode in plain agent; do
      tmp=$(mktemp -d)
      opts=()
      [ "$mode" = agent ] && opts=("-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn")
      "$java" "${opts[@]}" -cp "$CLASSES" ExitUnderScrape 1500 >"$tmp/out" &
      pid=$!
      if [ "$mode" = agent ]; then
        while [ ! -s "$tmp/port" ]; do sleep 0.01; done
        port=$(cat "$tmp/port")
        for s in 1 2 3 4; do (while kill -0 $pid 2>/dev/null; do curl -s -m 2 "http://127.0.0.1:$port/metrics" >/dev/null; done) & done
      fi
      until grep -q EXITING "$tmp/out" 2>/dev/null; do sleep 0.001; done
      t=$(date +%s%N)
      wait $pid
      if [ "$mode" = agent ]; then exit_agent+=("$(ms "$t")"); else exit_plain+=("$(ms "$t")"); fi
      wait 2>/dev/null || true
      rm -rf "$tmp"
    done
  done
  p=$(printf '%s\n' "${plain[@]}" | median); a=$(printf '%s\n' "${agent[@]}" | median)
  ep=$(printf '%s\n' "${exit_plain[@]}" | median); ea=$(printf '%s\n' "${exit_agent[@]}" | median)
  ratio=$(awk -v a="$a" -v p="$p" 'BEGIN{printf "%.2f", a/p}')
  echo "$(basename "$jdk"): hello $p ms vs $a ms (x$ratio); exit after last line $ep ms vs $ea ms"
  echo "| $(basename "$jdk") | $p | $a | ${ratio}x | $ep | $ea |" >>"$out"
done
write_section exit_time "$out"
rm -f "$out"
