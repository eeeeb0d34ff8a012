#!/usr/bin/env bash
# What the pinning probes cost a virtual-thread workload that never pins:
# VirtualParkBench (200 pairs of virtual threads handing 5,000 values each
# across SynchronousQueues: every hand-off parks and unmounts) with the agent
# at pinning=off and at pinning=on (the default), and without the agent for
# scale; runs interleaved, medians. About 1 minute per JDK at 7 runs.
# Writes the pinning section of docs/BENCHMARKS.md (NO_WRITE=1: print only).
# Usage: bench/pinning_bench.sh [runs] [java_home...]   (default: 7 runs, every JDK 21+ bench_jdks finds)
source "$(dirname "$0")/common.sh"
runs=${1:-7}
shift $(( $# > 0 ? 1 : 0 ))
homes=("$@")
[ ${#homes[@]} -eq 0 ] && mapfile -t homes < <(bench_jdks)
compile_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
md=$work/section.md
{
  echo "\`bench/pinning_bench.sh $runs\` ($(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)): median"
  echo "milliseconds of $runs runs each, interleaved; every run in brackets."
  echo
  echo "| JDK | no agent | agent, pinning=off | agent, pinning=on | on / off |"
  echo "|---|---|---|---|---|"
} >"$md"
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
  cell() { echo "$(median <"$work/$1") [$(paste -sd' ' "$work/$1")]"; }
  ratio=$(awk -v a="$(median <"$work/on")" -v b="$(median <"$work/off")" 'BEGIN { printf "%.2f", a / b }')
  echo "| $feature | $(cell none) | $(cell off) | $(cell on) | $ratio |" >>"$md"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$md"
cat "$md"
[ "${NO_WRITE:-0}" = 1 ] || write_section pinning "$md"
