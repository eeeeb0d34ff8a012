#!/usr/bin/env bash
# What an agent costs virtual-thread workloads, against the floor: no agent;
# the do-nothing agent (bench/floor_agent.c, built here); that agent with
# can_support_virtual_threads; with VirtualThreadStart/End too; jvmsight with
# its defaults; jvmsight with each virtual-thread option. Workloads:
#   http    bench/java/VirtualHttpServer (the JDK's HttpServer, a virtual
#           thread per request, 3 queue hand-offs each) under wrk -c64
#   skynet  bench/java/Skynet: 1,111,111 virtual threads a run, 3 runs timed
#   park    bench/java/VirtualParkBench 200 pairs x 5,000 hand-offs, 4 runs
#           timed (skynet and park after WARM_S=5 seconds of warm-up)
#   tomcat  Debian's Tomcat 10.1 (useVirtualThreads="true") serving
#           bench/java/tomcat/HandoffServlet (3 hand-offs to new virtual
#           threads per request) under wrk -c64
# Layouts: skynet and park start r % LAYOUTS (default 4) idle platform
# threads first in round r, the same for every configuration of the round.
# On two carriers these benches run at one of a few speeds up to 1.5x apart,
# set at start-up by what else the JVM holds: one idle thread more or less,
# in the application or in the agent, moves a configuration from one to
# another (BENCHMARKS.md, "Layouts"). A real application has threads of its
# own; varying their number samples those speeds instead of reading one.
# The runs in brackets are in round order: the first with 0 idle threads.
# Every JDK 21+ that bench_jdks finds (JDK 21 through the test harness's
# chroot wrappers, bench/common.sh). Rounds interleave every
# configuration (order rotated each round); per cell the median, the
# throughput relative to the floor (1.00 = the do-nothing agent; a time is
# inverted so that below 1 is always slower) and every run. While a workload
# runs under jvmsight, /metrics is scraped every SCRAPE_S seconds (default 1).
# Beside each median, the CPU the JVM used while measured: for the servers
# its share of the machine's cores (CPU-bound: near all that wrk leaves
# them), for skynet and park the CPU seconds of the timed runs (on a busy
# machine these move less than elapsed time); and how often its runs were
# slower than the floor's, over all pairs (floor and floor+again pooled).
# wrk and Tomcat come from Debian (apt-get download, dpkg -x under
# build/bench-debs: no service is installed or started).
# Duration: about 17 s per server run, 10-15 s per park or skynet run, so
# about a minute per configuration, JDK and round: at 7 rounds, the 7
# default configurations and two JDKs about 100 minutes (DECOMPOSE=1: 150).
# bench/run.sh vthreads (none, floor, jvmsight; WARM_S=4 MEASURE_S=8): about
# 35 minutes, estimated (one round took 8 minutes under a load average of 8).
# Usage: bench/vt_overhead.sh [rounds=7] [workload...]   (default: all four)
#   JDKS="25 21" restricts the JDKs (feature numbers); CONFIGS="none floor
#   jvmsight,pinning=auto" picks configurations (names as in all_configs, or
#   floor+<floor_agent.c options>, jvmsight,<agent options>; floor+again,
#   or any word floor_agent.c does not know, is the floor once more: the
#   A/A control, how far two identical configurations read apart in one
#   run, which on skynet is as far as most differences one looks for);
#   JVM_FLAGS adds JVM options to every run (one carrier,
#   -Djdk.virtualThreadScheduler.parallelism=1, takes the OS scheduler out
#   of park's hand-offs: each is then a yield and a resume on one thread;
#   on skynet it leaves a core to the JIT, the GC and the agents' threads,
#   and the floor's runs then spread by 15% instead of 1.5-2x: the setting
#   that tells a 5% cost apart on two cores);
#   DECOMPOSE=1 adds the ones that take jvmsight's cost apart (floor+caps:
#   the capabilities jvmsight asks for besides the virtual-thread one;
#   jvmsight without contention events, deadlock check, GC notifications);
#   LAYOUTS=1 runs skynet and park without idle threads;
#   NO_WRITE=1 prints only.
source "$(dirname "$0")/common.sh"
rounds=${1:-7}
shift $(($# > 0 ? 1 : 0))
workloads=("$@")
[ ${#workloads[@]} -eq 0 ] && workloads=(http skynet park tomcat)
SCRAPE_S=${SCRAPE_S:-1}
WARM_S=${WARM_S:-5}
MEASURE_S=${MEASURE_S:-10}
HEAP=(-Xms2g -Xmx2g)
LAYOUTS=${LAYOUTS:-4}
read -r -a JVM_FLAGS <<<"${JVM_FLAGS:-}"  # e.g. -Djdk.virtualThreadScheduler.parallelism=1
DEBS=$BUILD/bench-debs
WRK=$DEBS/root/usr/bin/wrk
wrk() { LD_LIBRARY_PATH=$DEBS/root/usr/lib/x86_64-linux-gnu "$WRK" "$@"; }  # its luajit is beside it
TOMCAT=$DEBS/root/usr/share/tomcat10

# name|agent argument ({floor} and {agent} are replaced; empty: no agent).
# The first seven by default; the rest (DECOMPOSE=1) take jvmsight apart.
js="-agentpath:{agent}=port=0,host=127.0.0.1,portfile={port}"
all_configs=(
  "none|"
  "floor|-agentpath:{floor}"
  "floor+vt|-agentpath:{floor}=vt"
  "floor+vtevents|-agentpath:{floor}=vtevents"
  "jvmsight|$js"
  "jvmsight,pinning=auto|$js,pinning=auto"
  "jvmsight,virtual_thread_churn=off|$js,virtual_thread_churn=off"
  "floor+caps|-agentpath:{floor}=caps"
  "jvmsight,contention=off|$js,contention=off"
  "jvmsight,deadlock_check_ms=0|$js,deadlock_check_ms=0"
  "jvmsight,gc_notifications=off|$js,gc_notifications=off"
)

install_debs() {
  [ -x "$WRK" ] && [ -f "$TOMCAT/bin/bootstrap.jar" ] && return
  mkdir -p "$DEBS/root"
  # Only the packages' files: no maintainer scripts, no service.
  (cd "$DEBS" && apt-get download -o APT::Sandbox::User=root wrk libluajit2-5.1-2 tomcat10-common libtomcat10-java)
  for deb in "$DEBS"/*.deb; do dpkg -x "$deb" "$DEBS/root"; done
}

build_floor_agent() {
  local inc
  for inc in /usr/lib/jvm/*/include "$BUILD"/jdk-roots/*/usr/lib/jvm/*/include; do
    grep -q can_support_virtual_threads "$inc/jvmti.h" 2>/dev/null && break
  done
  grep -q can_support_virtual_threads "$inc/jvmti.h" || { echo "no JDK 21+ jvmti.h found" >&2; exit 1; }
  cc -shared -fPIC -O2 -Wall -I"$inc" -I"$inc/linux" -o "$work/libfloor.so" "$ROOT/bench/floor_agent.c"
}

build_servlet() {
  local app=$work/tomcat-app
  mkdir -p "$app/WEB-INF/classes"
  /usr/lib/jvm/java-17-openjdk-amd64/bin/javac --release 11 -cp "$TOMCAT/lib/servlet-api.jar" \
    -d "$app/WEB-INF/classes" "$ROOT/bench/java/tomcat/HandoffServlet.java"
  cp "$ROOT/bench/java/tomcat/web.xml" "$app/WEB-INF/web.xml"
}

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# agent_args CONFIG_ARG: the -agentpath argument with its placeholders filled.
agent_args() {
  local a=${1//\{floor\}/$work/libfloor.so}
  a=${a//\{agent\}/$AGENT}
  echo "${a//\{port\}/$work/agent-port}"
}

# Scrapes /metrics every SCRAPE_S seconds once the agent wrote its port file.
scrape_loop() {
  while sleep "$SCRAPE_S"; do
    [ -s "$work/agent-port" ] && curl -s -o /dev/null --max-time 5 "http://127.0.0.1:$(cat "$work/agent-port")/metrics"
  done
}

stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

# wrk_run URL SERVER_PID: req/s over MEASURE_S after WARM_S of warm-up, and
# the server's share of the machine's cores while measured.
wrk_run() {
  local url=$1 pid=$2 out t0 t1 rate
  wrk -t2 -c64 -d"${WARM_S}s" "$url" >/dev/null
  t0=$(cpu_ticks "$pid")
  out=$(wrk -t2 -c64 -d"${MEASURE_S}s" "$url")
  t1=$(cpu_ticks "$pid")
  if grep -q -E 'Non-2xx|Socket errors' <<<"$out"; then echo "wrk saw errors: $out" >&2; fi
  rate=$(sed -n 's/^Requests\/sec: *\([0-9.]*\).*/\1/p' <<<"$out")
  [ -n "$rate" ] || return 0
  echo "$rate $(awk -v d=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v s="$MEASURE_S" -v n="$(nproc)" \
    'BEGIN { printf "%.2f", d / hz / s / n }')"
}

wait_for_200() {  # URL PID: true once URL answers 200 (Tomcat accepts before it serves)
  for _ in $(seq 300); do
    kill -0 "$2" 2>/dev/null || return 1
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$1")" = 200 ] && return 0
    sleep 0.2
  done
  return 1
}

# run WORKLOAD JAVA_HOME AGENT_ARG: prints "<value> <cpu>" (req/s and share
# of the cores for the servers, ms and CPU ms for skynet and park) or NA.
run() {
  local workload=$1 home=$2 agent=$3 pid port scraper value
  rm -f "$work/agent-port" "$work/out"
  local args=("${HEAP[@]}" "${JVM_FLAGS[@]}")
  [ -n "$agent" ] && args+=("$agent")
  scrape_loop &
  scraper=$!
  case $workload in
    skynet | park)
      # Timed after WARM_S of warm-up: the agents' own start-up (jvmsight's
      # is about 0.25 s of CPU, BENCHMARKS.md) is over by then.
      args+=("-Dbench.idle_threads=$idle")
      local main=(Skynet 3 "$WARM_S")
      [ "$workload" = park ] && main=(VirtualParkBench 200 5000 "$WARM_S" 4)
      value=$("$home/bin/java" "${args[@]}" -cp "$CLASSES" "${main[@]}" 2>"$work/err" |
        sed -n 's/^RESULT ms=\([0-9]*\) cpu_ms=\([0-9]*\).*/\1 \2/p')
      ;;
    http)
      # nodelay: JDK 21's HttpServer otherwise waits out delayed ACKs (latency-bound at ~1,400 req/s).
      "$home/bin/java" "${args[@]}" -Dsun.net.httpserver.nodelay=true -cp "$CLASSES" VirtualHttpServer \
        >"$work/out" 2>"$work/err" &
      pid=$!
      for _ in $(seq 300); do grep -q '^PORT ' "$work/out" && break; sleep 0.1; done
      port=$(sed -n 's/^PORT //p' "$work/out")
      [ -n "$port" ] && value=$(wrk_run "http://127.0.0.1:$port/" "$pid")
      stop "$pid"
      ;;
    tomcat)
      local base=$work/tomcat-base
      rm -rf "$base" && mkdir -p "$base/conf" "$base/logs" "$base/temp" "$base/webapps"
      ln -s "$work/tomcat-app" "$base/webapps/ROOT"
      port=$(free_port)
      sed "s/PORT/$port/" "$ROOT/bench/java/tomcat/server.xml" >"$base/conf/server.xml"
      "$home/bin/java" "${args[@]}" -cp "$TOMCAT/bin/bootstrap.jar:$TOMCAT/bin/tomcat-juli.jar" \
        "-Dcatalina.home=$TOMCAT" "-Dcatalina.base=$base" "-Djava.io.tmpdir=$base/temp" \
        org.apache.catalina.startup.Bootstrap start >"$work/out" 2>&1 &
      pid=$!
      wait_for_200 "http://127.0.0.1:$port/handoff" "$pid" && value=$(wrk_run "http://127.0.0.1:$port/handoff" "$pid")
      stop "$pid"
      ;;
  esac
  stop "$scraper"
  [ -n "${value:-}" ] || { echo "no result: $workload $(basename "$home") $agent: $(tail -3 "$work/err" "$work/out" 2>/dev/null)" >&2; value=NA; }
  echo "$value"
}

work=$(mktemp -d /tmp/vt_overhead.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT  # errexit: no jobs left must not skip the rm
compile_bench
build_floor_agent
if [[ " ${workloads[*]} " == *" http "* || " ${workloads[*]} " == *" tomcat "* ]]; then
  install_debs
  build_servlet
fi
homes=()
for home in $(bench_jdks); do
  f=$(feature_of "$home")
  [ "${f:-0}" -ge 21 ] || continue
  homes+=("$home")
done
configs=()
for ((i = 0; i < ${#all_configs[@]}; i++)); do
  c=${all_configs[$i]}
  name=${c%%|*}
  if [ -n "${CONFIGS:-}" ]; then
    [[ " $CONFIGS " == *" $name "* ]] || continue
  elif [ "${DECOMPOSE:-0}" != 1 ] && [ "$i" -ge 7 ]; then
    continue
  fi
  configs+=("$c")
done
# Other names in CONFIGS: floor+<floor_agent options> or jvmsight,<options>.
for name in ${CONFIGS:-}; do
  [[ " ${configs[*]%%|*} " == *" $name "* ]] && continue
  case $name in
    floor+*) configs+=("$name|-agentpath:{floor}=${name#floor+}") ;;
    jvmsight,*) configs+=("$name|$js,${name#jvmsight,}") ;;
    *) echo "unknown configuration '$name'" >&2; exit 2 ;;
  esac
done
started=$(date -u +%FT%TZ)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
# results/<workload>/<jdk>/<config index>: one line per run
for ((r = 0; r < rounds; r++)); do
  idle=$((r % LAYOUTS))
  for workload in "${workloads[@]}"; do
    for home in "${homes[@]}"; do
      f=$(feature_of "$home")
      for ((k = 0; k < ${#configs[@]}; k++)); do
        i=$(((k + r) % ${#configs[@]}))  # rotated: no configuration always runs first
        c=${configs[$i]}
        mkdir -p "$work/results/$workload/$f"
        v=$(run "$workload" "$home" "$(agent_args "${c#*|}")")
        echo "round $((r + 1)) $workload JDK $f ${c%%|*}: $v"
        echo "$v" >>"$work/results/$workload/$f/$i"
      done
    done
  done
done

# slower_share UNIT RUNS FLOOR_RUNS...: the share of (run, floor run) pairs
# in which the run was slower (ms: longer; req/s: fewer), ties counting
# half. Medians alone hide how much two configurations overlap: on skynet
# the floor's own runs span 1.5x within a pass.
slower_share() {
  local unit=$1 runs=$2
  shift 2
  cut -d' ' -f1 "$@" | grep -v NA | awk -v u="$unit" -v runs="$runs" '
    { floor[n++] = $1 }
    END {
      while ((getline line < runs) > 0) {
        split(line, f, " "); if (f[1] == "NA") continue
        for (i = 0; i < n; i++) {
          d = u == "ms" ? f[1] - floor[i] : floor[i] - f[1]
          s += d > 0 ? 1 : d == 0 ? 0.5 : 0; pairs++
        }
      }
      if (pairs) printf "%.2f", s / pairs
    }'
}

# The table: per workload and JDK, each configuration's median, its
# throughput relative to the floor, and every run.
md=$work/section.md
{
  echo "\`${JDKS:+JDKS=\"$JDKS\" }${CONFIGS:+CONFIGS=\"$CONFIGS\" }${DECOMPOSE:+DECOMPOSE=$DECOMPOSE }$([ "$WARM_S/$MEASURE_S" = 5/10 ] || echo "WARM_S=$WARM_S MEASURE_S=$MEASURE_S ")$([ "$LAYOUTS" = 4 ] || echo "LAYOUTS=$LAYOUTS ")bench/vt_overhead.sh $rounds ${workloads[*]}\` ($started, $(nproc) CPUs, load average before: $load_before,"
  echo "after: $(cut -d' ' -f1-3 /proc/loadavg)). Medians of $rounds interleaved runs; \"x floor\" is throughput"
  echo "relative to the do-nothing agent (requests a second divided, or times inverted: below 1.00 is slower);"
  echo "in parentheses also the CPU the JVM used while measured (servers: share of all cores; skynet and park:"
  echo "seconds), medians, and how often a run was slower than a floor run (over all pairs of the two: 0.50"
  echo "is no difference; with floor+again in CONFIGS both count as the floor); every run in brackets."
  [ "$LAYOUTS" = 1 ] || echo "skynet and park: run r (from 0) with r % $LAYOUTS idle platform threads started first."
  for workload in "${workloads[@]}"; do
    unit="ms"
    case $workload in http | tomcat) unit="req/s" ;; esac
    echo
    echo "| $workload ($unit) | $(for c in "${configs[@]}"; do printf '%s | ' "${c%%|*}"; done)"
    echo "|---|$(for _ in "${configs[@]}"; do printf -- '---|'; done)"
    for home in "${homes[@]}"; do
      f=$(feature_of "$home")
      dir=$work/results/$workload/$f
      floor_runs=()
      for ((i = 0; i < ${#configs[@]}; i++)); do
        case ${configs[$i]%%|*} in floor | floor+again) floor_runs+=("$dir/$i") ;; esac
      done
      floor_med=$([ ${#floor_runs[@]} -gt 0 ] && cut -d' ' -f1 "${floor_runs[@]}" | grep -v NA | median || echo)
      row="| JDK $f |"
      for ((i = 0; i < ${#configs[@]}; i++)); do
        med=$(cut -d' ' -f1 "$dir/$i" | grep -v NA | median)
        cpu=$(cut -s -d' ' -f2 "$dir/$i" | median)
        [ "$unit" = ms ] && [ -n "$cpu" ] && cpu=$(awk -v c="$cpu" 'BEGIN { printf "%.2f s", c / 1000 }')
        rel=$(awk -v m="$med" -v f="$floor_med" -v u="$unit" 'BEGIN {
          if (m == "" || f == "" || m == 0) { print "-"; exit }
          r = u == "ms" ? f / m : m / f
          printf "%.2f", r }')
        slower=$([ ${#floor_runs[@]} -gt 0 ] && slower_share "$unit" "$dir/$i" "${floor_runs[@]}")
        runs=$(cut -d' ' -f1 "$dir/$i" | awk '{printf "%s%.0f", (NR > 1 ? " " : ""), $1}')
        row+=" $med (${rel}x${cpu:+, cpu $cpu}${slower:+, slower $slower}) [$runs] |"
      done
      echo "$row"
    done
  done
} >"$md"
cat "$md"
[ "${NO_WRITE:-0}" = 1 ] || write_section vt_overhead "$md"
