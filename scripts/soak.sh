#!/usr/bin/env bash
# The RSS leak soak (outside CI): a JVM with the agent is scraped steadily
# for a while, and its resident set is sampled; a leak per scrape shows as
# a slope. The Java heap is fixed and touched up front (-Xms = -Xmx,
# AlwaysPreTouch), so what moves is native memory: the agent's and the JVM's.
# Native Memory Tracking tells the JVM's own share (code cache, metaspace,
# thread stacks, its mallocs) apart: RSS growth beyond NMT's committed growth
# is memory NMT does not see, i.e. the agent's and its libraries'.
#
#   scripts/soak.sh <build-dir> [minutes=10] [java-home=Temurin 25]
#
# Clients: 4 curl loops on /metrics (one scrape each every 0.1 s) and one on
# /threads then /deadlocks (every second). RSS from /proc/<pid>/status every
# 30 s. Prints a table and a summary line; the numbers of a run are in
# docs/SECURITY.md.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 <build-dir> [minutes] [java-home]" >&2; exit 2; }
build=$(cd "$1" && pwd)
minutes=${2:-10}
java_home=${3:-/usr/lib/jvm/temurin-25-jdk-amd64}
work=$(mktemp -d /tmp/jvmsight-soak.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# stdin held open (the fixture serves commands until EOF).
mkfifo "$work/stdin"
"$java_home/bin/java" -Xms64m -Xmx64m -XX:+AlwaysPreTouch -XX:NativeMemoryTracking=summary -cp "$build/tests/java-classes" \
  "-agentpath:$build/agent/libjvmsight.so=host=127.0.0.1,port=0,portfile=$work/port" \
  ThreadStates 3 2 4 2 <"$work/stdin" >"$work/out" 2>"$work/err" &
jvm=$!
pids+=("$jvm")
exec 3>"$work/stdin"
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.2; done
[ -s "$work/port" ] || { echo "soak: no port; stderr:" >&2; cat "$work/err" >&2; exit 1; }
port=$(cat "$work/port")
base=http://127.0.0.1:$port

scraper() {  # <count-file> <pause> <paths...>
  local file=$1 pause=$2
  shift 2
  while :; do
    for path in "$@"; do
      curl -sf -o /dev/null "$base$path" && echo >>"$file" || echo "fail $path" >>"$work/failures"
    done
    sleep "$pause"
  done
}
for i in 1 2 3 4; do scraper "$work/metrics.$i" 0.1 /metrics & pids+=($!); done
scraper "$work/details" 1 /threads /deadlocks & pids+=($!)

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$jvm/status"; }
nmt_kb() {  # the JVM's committed native memory as NMT counts it
  "$java_home/bin/jcmd" "$jvm" VM.native_memory summary | sed -n 's/^Total: .*committed=\([0-9]*\)KB.*/\1/p'
}
echo "soak: JDK $("$java_home/bin/java" -version 2>&1 | head -1), port $port, $minutes min, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%8s %10s %10s %10s\n' seconds rss_kib nmt_kib scrapes
samples=() nmts=()
end=$((minutes * 60))
for ((t = 0; t <= end; t += 30)); do
  [ "$t" -gt 0 ] && sleep 30
  kill -0 "$jvm" 2>/dev/null || { echo "soak: the JVM died; stderr:" >&2; cat "$work/err" >&2; exit 1; }
  scrapes=$( (cat "$work"/metrics.* 2>/dev/null || true) | wc -l)
  rss=$(rss_kb)
  nmt=$(nmt_kb)
  samples+=("$rss")
  nmts+=("$nmt")
  printf '%8d %10d %10d %10d\n' "$t" "$rss" "$nmt" "$scrapes"
done
details=$( (cat "$work/details" 2>/dev/null || true) | wc -l)
failures=0
[ -f "$work/failures" ] && failures=$(wc -l <"$work/failures")
# Warm-up: the first 2 minutes (class loading, JIT, first dumps) are not the slope.
warm=${samples[4]:-${samples[0]}}
last=${samples[-1]}
nmt_warm=${nmts[4]:-${nmts[0]}}
nmt_last=${nmts[-1]}
max=$(printf '%s\n' "${samples[@]:4}" "$warm" | sort -n | tail -1)
echo "soak: rss at 2 min $warm KiB, at end $last KiB (change $((last - warm)) KiB), max after 2 min $max KiB;" \
  "JVM (NMT) change $((nmt_last - nmt_warm)) KiB, so outside the JVM $((last - warm - nmt_last + nmt_warm)) KiB;" \
  "$scrapes scrapes, $details dumps, $failures failed requests, load $(cut -d' ' -f1-3 /proc/loadavg)"
