#!/usr/bin/env bash
# What the pinning probes cost a virtual-thread workload that never pins:
# VirtualParkBench (virtual threads handing values across SynchronousQueues)
# with the agent and pinning=off, then pinning=on (the default), runs
# alternating, median of each; and without the agent, for scale.
# Usage: bench/pinning_bench.sh [runs] [java_home...]   (default: 7 runs; JDK 21+ found by bench_jdks)
source "$(dirname "$0")/common.sh"
runs=${1:-7}
shift $(( $# > 0 ? 1 : 0 ))
homes=("$@")
[ ${#homes[@]} -eq 0 ] && mapfile -t homes < <(bench_jdks)
compile_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| JDK | no agent (ms) | pinning=off (ms) | pinning=on (ms) | on / off |"
echo "|---|---|---|---|---|"
for home in "${homes[@]}"; do
  feature=$("$home/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
  [ "${feature:-0}" -ge 21 ] || continue
  : >"$work/none"; : >"$work/off"; : >"$work/on"
  for ((i = 0; i < runs; i++)); do
    "$home/bin/java" -cp "$CLASSES" VirtualParkBench 200 5000 | sed -n 's/^RESULT ms=//p' >>"$work/none"
    for p in off on; do
      "$home/bin/java" -cp "$CLASSES" "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$work/port,pinning=$p" \
        VirtualParkBench 200 5000 2>/dev/null | sed -n 's/^RESULT ms=//p' >>"$work/$p"
    done
  done
  none=$(median <"$work/none"); off=$(median <"$work/off"); on=$(median <"$work/on")
  echo "| $feature | $none | $off | $on | $(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }') |"
done
