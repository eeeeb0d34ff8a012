#!/usr/bin/env bash
# The whole benchmark suite, or named parts of it, in a bounded time. Each part
# runs its bench script(s) and rewrites its own section of docs/BENCHMARKS.md
# (between <!-- bench:NAME --> markers) with the current results and the
# command beside them; how numbers evolved goes to docs/BENCHMARKS-HISTORY.md
# by hand, never here.
# Usage: bench/run.sh [part...]   (default: all parts; "list" names them)
# Parts, with their time on the 2-core machine (measured where a number has
# no "~"; the others are estimates):
#   contention  contention events vs floor, JFR, async-profiler; stress (10
#               rounds: 15 min) and mixed (3 rounds: ~5 min) workloads, every
#               JDK; plot docs/contention.png
#   overhead    whole-JVM throughput with threads piled on contended locks,
#               without and with the agent (nothing else), every JDK side by
#               side (OVERHEAD_ROUNDS=10 rounds of stress: ~2 min per JDK)
#   profiles    the mutex profile's cost: stress throughput with profiles on
#               (the default) over profiles off, async-profiler's lock mode
#               beside it, every JDK (PROFILES_ROUNDS=10: ~4 min per JDK),
#               and RSS at 10,000 distinct stacks on JDK 17 (~9 min;
#               PROFILES_MEMORY=off leaves it out)
#   toggle      what turning the contention events off and on costs at 100
#               and 10,000 threads, every JDK (1 min)
#   attribution lock-class attribution of duty-cycled events against the
#               JVM's counts, storms of 6 s and 30 s (bench/attribution_bench.sh; ~7 min)
#   deadlock    the background deadlock check vs findDeadlockedThreads at
#               10,000 threads, idle and pileup mixes (bench/deadlock_check_bench.sh; ~14 min)
#   memory      RSS added by the agent at 100 and 10,000 threads, without
#               and with OTLP (bench/otlp_cost.sh; 10 min)
#   scrape      a whole /metrics at 10,000 threads, 3 JVMs per JDK
#               (bench/whole_scrape.sh; 3.5 min)
#   pileup      lock pileups at 100-30,000 threads (bench/pileup.sh; ~23 min,
#               15 of them the at-rest windows)
#   gc          the GC pause histogram against the MXBean totals, G1, every
#               JDK (0.5 min); plot docs/gc_histogram.png
#   threads     thread-state collector vs ThreadMXBean (bench/thread_states.sh; ~1 min)
#   pools       the thread pool families' CPU at 10,000 threads, on and
#               off, and their background readings (bench/thread_pools.sh; ~14 min)
#   exit        JVM exit under scrapes (bench/exit_time.sh; ~1 min)
#   http        the HTTP server under floods: scrape latency and the server
#               thread's CPU (bench/http_flood.sh; ~5 min)
#   vthreads    virtual-thread workloads (HTTP server, Skynet, hand-offs,
#               Tomcat): no agent, the do-nothing agent and jvmsight's
#               defaults, JDK 21 and 25, 7 rounds (bench/vt_overhead.sh;
#               30 min, timed 2026-12-04; CONFIGS= as vt_overhead.sh takes it, e.g.
#               every option and the capability alone: about 100 min)
# All parts: about 170 minutes (the parts above summed; not timed end to
# end). CONTENTION="stress:10 mixed:3" sets the contention workloads and
# their rounds (e.g. CONTENTION="stress:3" for about 5 minutes).
source "$(dirname "$0")/common.sh"
CONTENTION=${CONTENTION:-stress:10 mixed:3}
all_parts=(contention overhead profiles toggle attribution deadlock memory gc scrape pileup threads pools exit http vthreads)

header() {  # header COMMAND: the line every section starts with
  echo "Command: \`$1\` ($(date -u +%Y-%m-%d), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg))."
}

part_contention() {
  local out tsv=$ROOT/docs/contention.tsv
  out=$(mktemp)
  : >"$tsv"
  for spec in $CONTENTION; do
    local workload=${spec%%:*} rounds=${spec##*:}
    {
      header "bench/run.sh contention"
      echo
      echo "Workload \`$workload\`: \`bench/contention_bench.sh <jdk> $rounds $workload\`. Ratios are throughput" \
           "with that configuration over the same round's run without any agent (medians over the rounds)."
    } >"$out"
    for jdk in $(bench_jdks); do
      local table
      table=$("$ROOT/bench/contention_bench.sh" "$jdk" "$rounds" "$workload" \
              "none floor agent agent-exact jfr-default jfr asprof" | tee >(cat >&2) | sed -n '/^| config/,$p')
      { echo; echo "$(basename "$jdk"):"; echo; echo "$table"; } >>"$out"
      echo "$table" | awk -F'|' -v w="$workload" -v j="$(basename "$jdk")" \
        'NR > 2 {gsub(/ /, "", $2); split($4, r, " "); print w "\t" j "\t" $2 "\t" r[1]}' >>"$tsv"
    done
    write_section "contention_$workload" "$out"
  done
  rm -f "$out"
  /usr/bin/python3 "$ROOT/bench/plot_contention.py" "$tsv" "$ROOT/docs/contention.png" || echo "no plot (matplotlib?)" >&2
}

part_overhead() {
  local out rounds=${OVERHEAD_ROUNDS:-10}
  out=$(mktemp)
  {
    header "bench/run.sh overhead"
    echo
    echo "\`bench/contention_bench.sh <jdk> $rounds stress \"none agent\"\`: 16 threads on 2 locks, every critical" \
         "section yielding the CPU (the most contended entries a second 2 CPUs make), without and with the agent" \
         "(defaults), interleaved; the ratio is the median over the rounds of agent/none throughput, paired by round."
    echo
    echo "| JDK | no agent (ops/s) | agent (ops/s) | agent / no agent | range of the rounds | contended entries/s |"
    echo "|---|---|---|---|---|---|"
  } >"$out"
  for jdk in $(bench_jdks); do
    "$ROOT/bench/contention_bench.sh" "$jdk" "$rounds" stress "none agent" | tee >(cat >&2) |
      awk -F'|' -v j="$(basename "$jdk")" '$2 ~ /none/ {none = $3} $2 ~ /agent/ {print "| " j " |" none "|" $3 "|" $4 "|" $5 "|" $6 "|"}' \
      >>"$out"
  done
  write_section contention_overhead "$out"
  rm -f "$out"
}

part_profiles() {
  local out rounds=${PROFILES_ROUNDS:-10}
  out=$(mktemp)
  {
    header "bench/run.sh profiles"
    echo
    echo "\`bench/contention_bench.sh <jdk> $rounds stress \"none agent-noprofile agent asprof\"\`: the overhead" \
         "workload; each configuration's throughput over that round's no-agent run (median over the rounds)," \
         "and the agent with profiles on over profiles off (the ratio of those medians). asprof: async-profiler" \
         "in lock mode (lock=0), the anchor."
    echo
    echo "| JDK | profiles off / none | profiles on / none | on / off | asprof lock / none | contended entries/s (on) |"
    echo "|---|---|---|---|---|---|"
  } >"$out"
  for jdk in $(bench_jdks); do
    "$ROOT/bench/contention_bench.sh" "$jdk" "$rounds" stress "none agent-noprofile agent asprof" | tee >(cat >&2) |
      awk -F'|' -v j="$(basename "$jdk")" '
        function ratio(cell) { split(cell, r, " "); return r[1] }
        $2 ~ /agent-noprofile/ {off = ratio($4)} $2 ~ / agent / {on = ratio($4); per_s = $6}
        $2 ~ /asprof/ {ap = ratio($4)}
        END { q = off + 0 > 0 && on + 0 > 0 ? sprintf("%.4f", on / off) : "n/a"
              printf "| %s | %s | %s | %s | %s | %s |\n", j, off, on, q, ap == "" ? "n/a" : ap, per_s }' \
      >>"$out"
  done
  write_section profiles_overhead "$out"
  [ "${PROFILES_MEMORY:-on}" = on ] || { rm -f "$out"; return 0; }
  # The table's memory is the agent's, not the JDK's: one JDK.
  {
    header "bench/run.sh profiles"
    echo
    echo "\`bench/profile_memory.sh /usr/lib/jvm/java-17-openjdk-amd64 10000 3\`, medians of 3 runs:"
    echo
    "$ROOT/bench/profile_memory.sh" /usr/lib/jvm/java-17-openjdk-amd64 10000 3
  } >"$out"
  write_section profiles_memory "$out"
  rm -f "$out"
}

part_toggle() {
  local out
  out=$(mktemp)
  compile_bench
  {
    header "bench/run.sh toggle"
    echo
    echo "The floor agent (\`bench/monitor_events_floor.cpp\`, option \`toggle=20\`) switches" \
         "MonitorContendedEnter/Entered off and on every 20 ms for 8 s in a JVM of N parked threads; one switch" \
         "is both SetEventNotificationMode calls."
    echo
    echo "| JDK | threads | switches | mean per switch (us) | max (us) |"
    echo "|---|---|---|---|---|"
  } >"$out"
  for jdk in $(bench_jdks); do
    for n in 100 10000; do
      local line
      line=$("$jdk/bin/java" -Xss256k -cp "$CLASSES" "-agentpath:$BUILD/bench/libmonitor_events_floor.so=toggle=20" \
             IdleThreadsFor "$n" 8000 | sed -n 's/^TOGGLE //p')
      echo "$line" | awk -v j="$(basename "$jdk")" -v n="$n" '{
        for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        printf "| %s | %d | %s | %s | %s |\n", j, n, v["switches"], v["mean_us"], v["max_us"] }' | tee -a "$out"
    done
  done
  write_section contention_toggle "$out"
  rm -f "$out"
}

part_memory() {
  # otlp_cost.sh measures RSS, threads and CPU with no agent, the agent, and
  # the agent pushing OTLP; once per thread count, each into its own section.
  OTLP_COST_SECTION=memory_100 "$ROOT/bench/otlp_cost.sh" 100 3 5
  OTLP_COST_SECTION=memory_10000 "$ROOT/bench/otlp_cost.sh" 10000 3 5
}

part_gc() {
  local out table
  out=$(mktemp)
  table=$(mktemp)
  # shellcheck disable=SC2046
  /usr/bin/python3 "$ROOT/bench/gc_histogram.py" --png "$ROOT/docs/gc_histogram.png" --table "$table" $(bench_jdks)
  {
    header "bench/run.sh gc"
    echo
    echo "\`bench/gc_histogram.py\`: AllocBench (1 thread, G1, 8 s) with the agent; the last \`/metrics\` before exit."
    echo
    cat "$table"
    echo
    echo "![GC pause histogram](gc_histogram.png)"
  } >"$out"
  write_section gc_histogram "$out"
  rm -f "$out" "$table"
}

part_attribution() { "$ROOT/bench/attribution_bench.sh"; }
part_deadlock() { "$ROOT/bench/deadlock_check_bench.sh" 10000 5 "idle pileup"; }
part_scrape() { "$ROOT/bench/whole_scrape.sh"; }
part_pileup() { "$ROOT/bench/pileup.sh"; }
part_threads() { "$ROOT/bench/thread_states.sh"; }
part_pools() { "$ROOT/bench/thread_pools.sh"; }
part_exit() { "$ROOT/bench/exit_time.sh"; }
part_http() { "$ROOT/bench/http_flood.sh"; }
part_vthreads() {  # the goal's three configurations; 4 s + 8 s per server run
  CONFIGS=${CONFIGS:-none floor jvmsight} WARM_S=${WARM_S:-4} MEASURE_S=${MEASURE_S:-8} "$ROOT/bench/vt_overhead.sh" 7
}

parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=("${all_parts[@]}")
if [ "${parts[0]}" = list ]; then
  printf '%s\n' "${all_parts[@]}"
  exit 0
fi
for p in "${parts[@]}"; do
  [[ " ${all_parts[*]} " == *" $p "* ]] || { echo "unknown part '$p' (${all_parts[*]})" >&2; exit 2; }
done
for p in "${parts[@]}"; do
  start=$(date +%s)
  echo "== $p" >&2
  "part_$p"
  echo "== $p took $(($(date +%s) - start)) s" >&2
done
