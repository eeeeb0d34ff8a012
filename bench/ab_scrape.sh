#!/usr/bin/env bash
# Two agent builds side by side, interleaved: the whole scrape (parked
# threads, bench/java/WholeScrapeBench.java) and the pileup scrape (a quarter
# each sleeping, BLOCKED, parked, waiting; bench/java/PileupBench.java) at N
# threads, one JVM per run, the builds alternating run by run (A B, then B A,
# so neither always goes first). Each run is itself the median of ROUNDS
# scrapes; the table gives the median of the runs per build and the ratio
# B/A. "scrape CPU" is the CPU time of the agent's threads during one
# /metrics response, what a scrape costs the JVM. Prints a markdown table;
# writes nothing. An agent is a library, and options after a comma: one
# build with two settings compares the settings.
# Usage: bench/ab_scrape.sh A_AGENT[,options] B_AGENT[,options] [pairs=5] [threads=10000] [rounds=15] [jdk...]
# BENCHES="whole" runs one of the two benches (default "whole pileup").
# e.g.   bench/ab_scrape.sh ../base/build/agent/libjvmsight.so build/agent/libjvmsight.so
#        bench/ab_scrape.sh build/agent/libjvmsight.so,profiles=off build/agent/libjvmsight.so
source "$(dirname "$0")/common.sh"
spec() { echo "$(readlink -f "${1%%,*}")$([[ $1 == *,* ]] && echo ",${1#*,}")"; }
A=$(spec "$1")
B=$(spec "$2")
PAIRS=${3:-5}
THREADS=${4:-10000}
ROUNDS=${5:-15}
BENCHES=${BENCHES:-whole pileup}
for bench in $BENCHES; do
  case $bench in whole | pileup) ;; *) echo "BENCHES: whole and/or pileup, not '$bench'" >&2; exit 2 ;; esac
done
shift $(($# < 5 ? $# : 5))
JDKS=("$@")
[ ${#JDKS[@]} -gt 0 ] || mapfile -t JDKS < <(bench_jdks)
compile_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # run JDK AGENT BENCH: appends the RESULT line's key=value pairs to work/<bench>.<agent>
  local jdk=$1 agent=$2 bench=$3 tag args
  tag=$([ "$agent" = "$A" ] && echo a || echo b)
  rm -f "$work/port"
  case $bench in
    whole) args=(WholeScrapeBench "$THREADS" "$ROUNDS" "$work/port") ;;
    pileup) args=(-XX:+UseSerialGC -Xmx512m PileupBench scrape "$THREADS" "$ROUNDS" "$work/port") ;;
  esac
  local opts=""
  [[ $agent == *,* ]] && opts=",${agent#*,}"
  "$jdk/bin/java" -Xss256k "-agentpath:${agent%%,*}=port=0,host=127.0.0.1,portfile=$work/port,log=warn$opts" \
    -cp "$CLASSES" "${args[@]}" 2>"$work/err" | sed -n 's/^RESULT //p' >>"$work/$bench.$tag" ||
    echo "$(basename "$jdk") $bench $tag failed: $(tail -1 "$work/err")" >&2
}
echo "Command: \`bench/ab_scrape.sh A B $PAIRS $THREADS $ROUNDS\` ($(date -u +%Y-%m-%d), $(nproc) cores," \
  "load average before: $(cut -d' ' -f1-3 /proc/loadavg)); A=$A, B=$B; medians of $PAIRS runs each, interleaved."
echo
echo "| JDK | bench | scrape CPU A (ms) | scrape CPU B (ms) | B/A | whole /metrics A (ms) | B (ms) | agent thread A (ms) | B (ms) |"
echo "|---|---|---|---|---|---|---|---|---|"
for jdk in "${JDKS[@]}"; do
  rm -f "$work"/whole.* "$work"/pileup.*
  for p in $(seq 1 "$PAIRS"); do
    order=("$A" "$B")
    [ $((p % 2)) -eq 0 ] && order=("$B" "$A")
    for bench in $BENCHES; do
      for agent in "${order[@]}"; do run "$jdk" "$agent" "$bench"; done
    done
  done
  for bench in $BENCHES; do
    [ -s "$work/$bench.a" ] && [ -s "$work/$bench.b" ] || continue
    key=scrape_ms
    [ "$bench" = pileup ] && key=agent_ms
    ca=$(field_median "$work/$bench.a" scrape_cpu_ms) cb=$(field_median "$work/$bench.b" scrape_cpu_ms)
    echo "| $(basename "$jdk") | $bench | $ca | $cb | $(python3 -c "print(f'{$cb/$ca:.2f}')") |" \
      "$(field_median "$work/$bench.a" http_ms) | $(field_median "$work/$bench.b" http_ms) | $(field_median "$work/$bench.a" $key) |" \
      "$(field_median "$work/$bench.b" $key) |"
    # Every run, for the spread: JDK bench build scrape_cpu_ms...
    echo "$(basename "$jdk") $bench A: $(tr ' ' '\n' <"$work/$bench.a" | sed -n 's/^scrape_cpu_ms=//p' | tr '\n' ' ')" >&2
    echo "$(basename "$jdk") $bench B: $(tr ' ' '\n' <"$work/$bench.b" | sed -n 's/^scrape_cpu_ms=//p' | tr '\n' ' ')" >&2
  done
done
