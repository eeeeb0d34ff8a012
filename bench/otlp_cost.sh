#!/usr/bin/env bash
# What the agent and its OTLP push cost a JVM that does nothing else: N
# parked threads, side by side in one run, per JDK: no agent, the agent
# without OTLP (the default), and the agent pushing every second over
# OTLP/HTTP and over OTLP/gRPC to local sinks (otlp_sink, the tests'
# receivers). Per configuration: RSS (VmRSS), threads (/proc/pid/task) and
# shared objects mapped after settling, and process CPU over a window, from
# /proc; medians of R runs. The Java heap is fixed and pre-touched
# (-Xms64m -Xmx64m -XX:+AlwaysPreTouch): otherwise how far the heap happened
# to grow differs between runs by more than the agent costs.
# Usage: bench/otlp_cost.sh [threads=10000] [runs=3] [window_s=15]
source "$(dirname "$0")/common.sh"
THREADS=${1:-10000}
RUNS=${2:-3}
WINDOW=${3:-15}
compile_bench
SINK=$BUILD/tests/otlp/otlp_sink
[ -x "$SINK" ] || { echo "otlp_cost: $SINK is missing (build with tests: scripts/quickstart.sh build)" >&2; exit 1; }
sinks=()
trap '[ ${#sinks[@]} -eq 0 ] || kill "${sinks[@]}" 2>/dev/null; true' EXIT
start_sink() {  # <grpc|http> <variable>: starts a sink, sets the variable to its port
  local out
  out=$(mktemp)
  "$SINK" "$1" >"$out" 2>/dev/null &
  sinks+=($!)
  for _ in $(seq 50); do [ -s "$out" ] && break; sleep 0.1; done
  printf -v "$2" '%s' "$(head -1 "$out")"
  rm -f "$out"
  [ -n "${!2}" ] || { echo "otlp_cost: the $1 sink did not start" >&2; exit 1; }
}
start_sink http HTTP_PORT
start_sink grpc GRPC_PORT

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# measure <jdk> <config>: one run; prints "rss_kb threads cpu_percent objects"
measure() {
  local jdk=$1 config=$2 tmp pid agent=() envs=()
  tmp=$(mktemp -d)
  case $config in
    none) ;;
    agent) agent=("-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn") ;;
    otlp-http)
      agent=("-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn")
      envs=(OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$HTTP_PORT" OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf
            OTEL_METRIC_EXPORT_INTERVAL=1000) ;;
    otlp-grpc)
      agent=("-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$tmp/port,log=warn")
      envs=(OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$GRPC_PORT" OTEL_EXPORTER_OTLP_PROTOCOL=grpc
            OTEL_METRIC_EXPORT_INTERVAL=1000) ;;
  esac
  env "${envs[@]}" "$jdk/bin/java" -Xss256k -Xms64m -Xmx64m -XX:+AlwaysPreTouch "${agent[@]}" -cp "$CLASSES" IdleThreads "$THREADS" \
    >"$tmp/out" 2>"$tmp/err" &
  pid=$!
  for _ in $(seq 600); do grep -q READY "$tmp/out" 2>/dev/null && break; sleep 0.1; done
  sleep 5  # start-up work (class loading, JIT, the agent's warm-up) settles
  local t0 t1
  t0=$(ticks $pid)
  sleep "$WINDOW"
  t1=$(ticks $pid)
  local rss threads objects
  rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status")
  threads=$(ls "/proc/$pid/task" | wc -l)
  objects=$(awk '$6 ~ /\.so/ {print $6}' "/proc/$pid/maps" | sort -u | wc -l)
  kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$tmp"
  awk -v r="$rss" -v t="$threads" -v d=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v w="$WINDOW" -v o="$objects" \
    'BEGIN {printf "%d %d %.2f %d\n", r, t, 100 * d / hz / w, o}'
}

out=$(mktemp)
{
  echo "Command: \`bench/otlp_cost.sh $THREADS $RUNS $WINDOW\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average" \
    "$(cut -d' ' -f1-3 /proc/loadavg)); $THREADS parked threads, nothing scrapes; medians of $RUNS runs;" \
    "CPU over ${WINDOW} s after 5 s of settling."
  echo
  echo "| JDK | configuration | RSS (MiB) | threads | shared objects | CPU (% of a core) | RSS over no agent (MiB) |"
  echo "|---|---|---|---|---|---|---|"
} >"$out"
for jdk in $(bench_jdks); do
  base_rss=""
  for config in none agent otlp-http otlp-grpc; do
    rss=() thr=() cpu=() obj=()
    for _ in $(seq "$RUNS"); do
      read -r r t c o < <(measure "$jdk" "$config")
      rss+=("$r") thr+=("$t") cpu+=("$c") obj+=("$o")
    done
    r=$(printf '%s\n' "${rss[@]}" | median)
    t=$(printf '%s\n' "${thr[@]}" | median)
    c=$(printf '%s\n' "${cpu[@]}" | median)
    o=$(printf '%s\n' "${obj[@]}" | median)
    [ -n "$base_rss" ] || base_rss=$r
    label=$config
    [ "$config" = none ] && label="no agent"
    [ "$config" = agent ] && label="agent, no OTLP (default)"
    [ "$config" = otlp-http ] && label="agent, OTLP/HTTP push every 1 s"
    [ "$config" = otlp-grpc ] && label="agent, OTLP/gRPC push every 1 s"
    line="| $(basename "$jdk") | $label | $(awk -v r="$r" 'BEGIN {printf "%.1f", r / 1024}') | $t | $o | $c | $(awk -v r="$r" -v b="$base_rss" 'BEGIN {printf "%+.1f", (r - b) / 1024}') |"
    echo "$line"
    echo "$line" >>"$out"
  done
done
write_section "${OTLP_COST_SECTION:-otlp_cost}" "$out"
rm -f "$out"
