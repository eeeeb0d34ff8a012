#!/usr/bin/env bash
# Contention events cost: throughput of a contention-heavy workload with no
# agent, with HotSpot's event posting alone (the floor agent: same events,
# empty callbacks), with jvmsight, and with peers: JFR with its default
# settings, JFR with jdk.JavaMonitorEnter at threshold 0, async-profiler in
# lock mode (lock=0; built by bench/async_profiler.sh, skipped with a note if
# it cannot be had). Runs interleaved (none floor agent ..., none floor agent
# ..., ...) so machine noise hits all alike; each round gives a ratio to that
# round's no-agent run, and the result is the median ratio.
# Usage: bench/contention_bench.sh [java_home] [rounds] [workload] [configs]
#   workload: mixed (default; one critical section in 16 yields the CPU
#             while holding the lock, as a page fault or blocking call
#             would: tens of thousands of contended entries a second),
#             stress (every critical section yields: the most contended
#             entries a second 2 CPUs can make), or io (each critical
#             section sleeps 50 us, as blocking I/O under a lock would)
#   configs:  which runs, default "none floor agent jfr-default jfr asprof";
#             also agent-exact (contention_sampling=off: events always on,
#             every entry timed), agent-nocheck (deadlock_check_ms=0: no
#             background deadlock check), agent-noprofile (profiles=off:
#             no stacks taken for /debug/pprof/mutex) and agent-b (another
#             build with its defaults, JVMSIGHT_AGENT_B: e.g. a baseline)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
java_home=${1:-/usr/lib/jvm/java-17-openjdk-amd64}
rounds=${2:-7}
workload=${3:-mixed}
read -r -a configs <<< "${4:-none floor agent jfr-default jfr asprof}"
for c in "${configs[@]}"; do
  case $c in
    none|floor|agent|agent-exact|agent-nocheck|agent-noprofile|agent-b|jfr|jfr-default|asprof) ;;
    *) echo "unknown config '$c' (none, floor, agent, agent-exact, agent-nocheck, agent-noprofile, agent-b, jfr," \
            "jfr-default or asprof)" >&2
       exit 2 ;;
  esac
done
if [[ " ${configs[*]} " == *" asprof "* ]]; then
  if ! asprof=$("$here/async_profiler.sh"); then
    echo "async-profiler unavailable: its runs are left out" >&2
    read -r -a configs <<< "${configs[*]/asprof/}"
  fi
fi
[[ " ${configs[*]} " == *" none "* ]] || { echo "configs must include none: ratios are to it" >&2; exit 2; }
agent=${JVMSIGHT_AGENT:-$here/../build/agent/libjvmsight.so}
floor=${JVMSIGHT_FLOOR_AGENT:-$here/../build/bench/libmonitor_events_floor.so}
agent_b=${JVMSIGHT_AGENT_B:-}
[[ " ${configs[*]} " != *" agent-b "* ]] || [ -n "$agent_b" ] || { echo "agent-b needs JVMSIGHT_AGENT_B" >&2; exit 2; }
for lib in "$agent" "$floor" ${agent_b:+"$agent_b"}; do
  [ -f "$lib" ] || { echo "build first: cmake -S . -B build && make -C build (no $lib)" >&2; exit 1; }
done
case $workload in
  mixed) block=yield=16 ;;
  stress) block=yield ;;
  io) block=park=50 ;;
  *) echo "unknown workload '$workload' (mixed, stress or io)" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/lib/jvm/java-17-openjdk-amd64/bin/javac --release 8 -Xlint:-options -d "$work" "$here/java/ContentionBench.java"  # runs on JDK 8 to 25
args=(ContentionBench 16 2 2000 4000 100 100 "$block")
run_java() {
  case $1 in
    none)  "$java_home/bin/java" -cp "$work" "${args[@]}" ;;
    floor) "$java_home/bin/java" -cp "$work" "-agentpath:$floor" "${args[@]}" ;;
    agent) "$java_home/bin/java" -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1" "${args[@]}" ;;
    agent-exact) "$java_home/bin/java" -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1,contention_sampling=off" \
             "${args[@]}" ;;
    agent-nocheck) "$java_home/bin/java" -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1,deadlock_check_ms=0" \
             "${args[@]}" ;;
    agent-noprofile) "$java_home/bin/java" -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1,profiles=off" \
             "${args[@]}" ;;
    agent-b) "$java_home/bin/java" -cp "$work" "-agentpath:$agent_b=port=0,host=127.0.0.1" "${args[@]}" ;;
    jfr)   "$java_home/bin/java" -cp "$work" \
             "-XX:StartFlightRecording=filename=$work/rec.jfr,settings=$here/monitor_enter.jfc" "${args[@]}" ;;
    jfr-default) "$java_home/bin/java" -cp "$work" \
             "-XX:StartFlightRecording=filename=$work/rec.jfr,settings=default" "${args[@]}" ;;
    asprof) "$java_home/bin/java" -cp "$work" "-agentpath:$asprof=start,event=lock,lock=0,file=$work/ap.jfr" \
             "${args[@]}" ;;
  esac
}
# run CONFIG: the run's RESULT fields; a run that printed none (an agent
# that did not load, a JDK wrapper gone stale) says so with the end of its
# output (HotSpot writes its own errors to stdout) instead of leaving an
# empty row.
run() {
  run_java "$1" >"$work/output" 2>&1 || true
  local result
  result=$(sed -n 's/^RESULT //p' "$work/output")
  [ -n "$result" ] || { echo "bench: $1 printed no result; its output ends:" >&2; tail -n 5 "$work/output" >&2; }
  echo "$result"
}
echo "java: $("$java_home/bin/java" -version 2>&1 | head -1); workload $workload (16 threads, 2 locks, $block inside);" \
     "$rounds rounds; $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq 1 "$rounds"); do
  for c in "${configs[@]}"; do echo "$r $c $(run "$c")"; done
done | tee "$work/results"
python3 - "$work/results" "${configs[@]}" <<'PY'
import statistics, sys
ops, blocked = {}, {}
for line in open(sys.argv[1]):
    rnd, conf, *kv = line.split()
    if not kv:
        continue  # the run printed no result (reported above)
    d = dict(x.split("=") for x in kv)
    ops.setdefault(conf, {})[rnd] = float(d["ops_per_s"])
    blocked.setdefault(conf, []).append(float(d["blocked_per_s"]))
print("| config | median ops/s | median ratio to no agent (paired by round) | range of the rounds | contended entries/s |")
print("|---|---|---|---|---|")
for conf in sys.argv[2:]:
    ratios = [ops[conf][r] / ops["none"][r] for r in ops.get(conf, {}) if r in ops.get("none", {})]
    if not ratios:
        print(f"| {conf} | no results | | | |")
        continue
    m = statistics.median(ratios)
    print(f"| {conf} | {statistics.median(ops[conf].values()):,.0f} | {m:.4f} ({(m - 1) * 100:+.2f}%) | "
          f"{min(ratios):.3f}-{max(ratios):.3f} | {statistics.median(blocked[conf]):,.0f} |")
PY
