#!/usr/bin/env bash
# The mutex profile's memory at many stacks: RSS of a JVM whose contended
# entries came from N distinct stacks (bench/java/DistinctStacks.java, ~30
# frames each), with profiles=off and on (the default), side by side per
# run, after one /debug/pprof/mutex so every stack is named. Both with the
# events always on and every wait kept (contention_sampling=off,
# profile_rate_us=0), so every stack lands in the table. The Java heap is
# fixed and pre-touched, as in otlp_cost.sh. Medians of R runs; also the
# profile's size as served (stored gzip blocks) and as gzip -9 would make it.
# Usage: bench/profile_memory.sh [java_home] [stacks=10000] [runs=3]
source "$(dirname "$0")/common.sh"
JDK=${1:-/usr/lib/jvm/java-17-openjdk-amd64}
STACKS=${2:-10000}
RUNS=${3:-3}
compile_bench
pid=""
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; true' EXIT

# measure <off|on>: prints "rss_kb stacks profile_bytes gzip9_bytes"
measure() {
  local tmp port stacks bytes rss packed
  tmp=$(mktemp -d)
  "$JDK/bin/java" -Xms64m -Xmx64m -XX:+AlwaysPreTouch -cp "$CLASSES" \
    "-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,profiles=$1,contention_sampling=off,profile_rate_us=0" \
    DistinctStacks "$STACKS" \
    >"$tmp/out" 2>/dev/null &
  pid=$!
  for _ in $(seq 600); do grep -q '^DONE' "$tmp/out" 2>/dev/null && break; sleep 0.2; done
  port=$(cat "$tmp/port")
  bytes=$(curl -s -o "$tmp/profile" -w '%{size_download}' "http://127.0.0.1:$port/debug/pprof/mutex")
  packed=$( (gzip -dc "$tmp/profile" 2>/dev/null || true) | gzip -9 | wc -c)
  sleep 1
  stacks=$(curl -s "http://127.0.0.1:$port/metrics" | sed -n 's/^jvmsight_profile_stacks{profile="mutex"} //p')
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$pid/status")
  kill "$pid"
  wait "$pid" 2>/dev/null || true
  pid=""
  rm -rf "$tmp"
  echo "$rss ${stacks:-0} $bytes $packed"
}

echo "java: $("$JDK/bin/java" -version 2>&1 | head -1); $STACKS distinct stacks; $RUNS runs;" \
     "load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
results=$(mktemp)
for r in $(seq "$RUNS"); do
  for config in off on; do echo "$config $(measure "$config")" | tee -a "$results" >&2; done
done
off=$(awk '$1 == "off" {print $2}' "$results" | median)
on=$(awk '$1 == "on" {print $2}' "$results" | median)
stacks=$(awk '$1 == "on" {print $3}' "$results" | median)
bytes=$(awk '$1 == "on" {print $4}' "$results" | median)
packed=$(awk '$1 == "on" {print $5}' "$results" | median)
rm -f "$results"
echo "| profiles=off RSS (KiB) | profiles=on RSS (KiB) | on - off (KiB) | stacks kept | /debug/pprof/mutex bytes | the same, gzip -9 |"
echo "|---|---|---|---|---|---|"
echo "| $off | $on | $((on - off)) | $stacks | $bytes | $packed |"
