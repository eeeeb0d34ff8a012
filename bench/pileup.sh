#!/usr/bin/env bash
# Lock pileups (issue #11): a quarter of the threads each sleeping, BLOCKED
# on one held monitor, parked on one held ReentrantLock, in Object.wait.
# 1. A whole /metrics response against getThreadInfo(getAllThreadIds()) in
#    the same JVM, at each thread count (bench/java/PileupBench.java scrape).
# 2. Nobody scraping: process CPU from /proc over a window 3 s after the
#    pileup formed (the agent still reacting to thousands of new waits) and
#    over one REST_AT s later (default 30; the agent at rest, which is what
#    the 1%-of-a-core target is about), without and with the agent,
#    alternating, at IDLE_AT threads (10,000 by default), and the check's own
#    CPU counter.
# Medians of RUNS runs per cell (each scrape run is itself a median of
# ROUNDS rounds); every JDK under /usr/lib/jvm. Rewrites the pileup_scrape
# and pileup_background sections of docs/BENCHMARKS.md (NO_WRITE=1: print
# only), writes docs/pileup_scrape.tsv and, with Debian's matplotlib,
# docs/pileup_scrape.png. JVMSIGHT_AGENT overrides the agent (e.g. an older build);
# AGENT_OPTS adds agent options (e.g. profiles=off: the block profile's
# sampler, on by default, is then not running); AGENT_OPTS_B adds a third
# JVM to each idle run, the agent with those options instead, so two
# settings compare side by side (e.g. AGENT_OPTS_B=profiles=off; the
# counts "" to skip the scrape part); JDKS="25 21" keeps those JDKs
# (bench/common.sh).
# Usage: bench/pileup.sh ["100 1000 10000 30000"] [runs=3] [rounds=10] [idle_seconds=10]
source "$(dirname "$0")/common.sh"
AGENT=${JVMSIGHT_AGENT:-$AGENT}
COUNTS=${1-100 1000 10000 30000}  # "": no scrape part
RUNS=${2:-3}
ROUNDS=${3:-10}
IDLE=${4:-10}
IDLE_AT=${IDLE_AT:-10000}
REST_AT=${REST_AT:-30}
compile_bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
JAVA_OPTS=(-Xss256k -XX:+UseSerialGC -Xmx512m)
run() {  # run JDK [agent|agent_b|none] ARGS...: prints the RESULT line's key=value pairs
  local jdk=$1 with=$2
  shift 2
  local agent=() opts=${AGENT_OPTS:-}
  rm -f "$work/port"
  [ "$with" = agent_b ] && opts=$AGENT_OPTS_B
  [ "$with" = none ] || agent=("-agentpath:$AGENT=port=0,host=127.0.0.1,portfile=$work/port,log=warn${opts:+,$opts}")
  "$jdk/bin/java" "${JAVA_OPTS[@]}" "${agent[@]}" -cp "$CLASSES" PileupBench "$@" 2>"$work/err" |
    sed -n 's/^RESULT //p' || true
}
get() { tr ' ' '\n' | sed -n "s/^$1=//p"; }
stamp="$(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
scrape_md=$work/scrape.md
idle_md=$work/idle.md
tsv=$work/scrape.tsv
echo -e "jdk\tthreads\tgetthreadinfo_ms\thttp_ms\tagent_ms\tlock_queue_ms\tgetthreadinfo_cpu_ms\tscrape_cpu_ms" >"$tsv"
{
  echo "Command: \`bench/pileup.sh \"$COUNTS\" $RUNS $ROUNDS $IDLE\` ($stamp; load average before:" \
    "$(cut -d' ' -f1-3 /proc/loadavg)). Medians of $RUNS JVMs, each the median of $ROUNDS interleaved rounds."
  echo
  echo "| JDK | threads (live) | BLOCKED / parked seen | getThreadInfo, all (ms) | whole /metrics over HTTP (ms) | agent thread (ms) | of which lock_queue (ms) | getThreadInfo / HTTP scrape | getThreadInfo CPU (ms) | scrape CPU (ms) | CPU ratio |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$scrape_md"
{
  echo "Command: \`bench/pileup.sh \"$COUNTS\" $RUNS $ROUNDS $IDLE\` ($stamp; REST_AT=$REST_AT). $IDLE_AT threads, nobody" \
    "scraping; process CPU (utime+stime from /proc/self/stat) over $IDLE s from 3 s after the pileup formed (early) and" \
    "over $IDLE s from $REST_AT s after that (at rest), JVMs without and with the agent alternating, medians of $RUNS" \
    "each; the check's own counter \`jvmsight_deadlock_check_cpu_seconds_total\` over the whole run (scraped once, after" \
    "both windows: a scrape starts the agent's background refreshes)."
  echo
  b_head="" b_rule=""
  if [ -n "${AGENT_OPTS_B:-}" ]; then
    echo "Beside the agent, in the same rotation: the agent with \`$AGENT_OPTS_B\` (B)."
    echo
    b_head=" at rest: B | added by B (points) |" b_rule="---|---|"
  fi
  echo "| JDK | early: no agent (% of a core) | agent | added (points) | at rest: no agent (% of a core) | agent | added (points) | check CPU per check (ms) | check CPU (% of a core) |$b_head"
  echo "|---|---|---|---|---|---|---|---|---|$b_rule"
} >"$idle_md"
for jdk in $(bench_jdks); do
  name=$(basename "$jdk")
  for n in $COUNTS; do
    : >"$work/rows"
    for r in $(seq 1 "$RUNS"); do run "$jdk" agent scrape "$n" "$ROUNDS" "$work/port" >>"$work/rows"; done
    if [ ! -s "$work/rows" ]; then
      echo "$name $n: no result ($(tail -2 "$work/err"))" >&2
      echo "| $name | $n | failed: $(tail -1 "$work/err" | cut -c1-80) | | | | | | | | |" >>"$scrape_md"
      continue
    fi
    m() { get "$1" <"$work/rows" | median; }
    live=$(m live) mx=$(m mx_ms) http=$(m http_ms) ag=$(m agent_ms) q=$(m lock_queue_ms)
    mxc=$(m mx_cpu_ms) sc=$(m scrape_cpu_ms)
    line="| $name | $n ($live) | $(m blocked) / $(m parked) | $mx | $http | $ag | $q | $(python3 -c "print(f'{$mx/$http:.1f}x')") | $mxc | $sc | $(python3 -c "print(f'{$mxc/$sc:.1f}x')") |"
    echo "$line"
    echo "$line" >>"$scrape_md"
    echo -e "$name\t$n\t$mx\t$http\t$ag\t$q\t$mxc\t$sc" >>"$tsv"
  done
  : >"$work/none"
  : >"$work/with"
  : >"$work/with_b"
  for r in $(seq 1 "$RUNS"); do
    run "$jdk" none idle "$IDLE_AT" "$IDLE" - "$REST_AT" >>"$work/none"
    run "$jdk" agent idle "$IDLE_AT" "$IDLE" "$work/port" "$REST_AT" >>"$work/with"
    [ -z "${AGENT_OPTS_B:-}" ] || run "$jdk" agent_b idle "$IDLE_AT" "$IDLE" "$work/port" "$REST_AT" >>"$work/with_b"
  done
  python3 - "$work/none" "$work/with" "$name" "$work/with_b" >>"$idle_md" <<'PY'
import statistics, sys
rows = lambda f: [dict(x.split("=") for x in l.split()) for l in open(f) if l.strip()]
none, with_, name, with_b = rows(sys.argv[1]), rows(sys.argv[2]), sys.argv[3], rows(sys.argv[4])
if not none or not with_:
    print(f"| {name} | failed | | | | | | | |"); sys.exit()
med = lambda rs, k: statistics.median(float(r[k]) for r in rs) if all(k in r for r in rs) else float("nan")
a, b, ra, rb = med(none, "cpu_pct"), med(with_, "cpu_pct"), med(none, "rest_cpu_pct"), med(with_, "rest_cpu_pct")
per = statistics.median(float(r["check_cpu_s"]) / float(r["checks"]) * 1e3 for r in with_)
b_cells = ""
if with_b:
    rbb = med(with_b, "rest_cpu_pct")
    b_cells = f" {rbb:.2f} | {rbb - ra:+.2f} |"
print(f"| {name} | {a:.2f} | {b:.2f} | {b - a:+.2f} | {ra:.2f} | {rb:.2f} | {rb - ra:+.2f} | {per:.3f} | {per / 500 * 100:.2f} |{b_cells}")
PY
  tail -1 "$idle_md"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$scrape_md"
cat "$scrape_md" "$idle_md"
if [ "${NO_WRITE:-0}" != 1 ]; then
  write_section pileup_scrape "$scrape_md"
  write_section pileup_background "$idle_md"
  cp "$tsv" "$ROOT/docs/pileup_scrape.tsv"
  /usr/bin/python3 "$ROOT/bench/plot_pileup.py" "$ROOT/docs/pileup_scrape.tsv" "$ROOT/docs/pileup_scrape.png" ||
    echo "no plot (Debian python3-matplotlib missing?)" >&2
fi
