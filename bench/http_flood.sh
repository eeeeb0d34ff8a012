#!/usr/bin/env bash
# The HTTP server under floods (bench/http_flood_bench.cpp): scrape latency
# from 127.0.0.1 while hostile clients from 127.0.0.2 hold on, and the
# server thread's CPU under each flood, with the thread's CPU budget
# (cpu_percent 25, the default) and without it (100), interleaved runs,
# medians. Writes the http_floods section of docs/BENCHMARKS.md.
# Usage: bench/http_flood.sh [runs=3] [seconds=6]
source "$(dirname "$0")/common.sh"
RUNS=${1:-3}
SECONDS_EACH=${2:-6}
BIN=$BUILD/bench/http_flood_bench
[ -x "$BIN" ] || { echo "build first: cmake --build build --target http_flood_bench" >&2; exit 1; }
out=$(mktemp)
col() { awk -v c="$1" '{print $c}' "$2" | median; }
{
  echo "Command: \`bench/http_flood.sh $RUNS $SECONDS_EACH\` ($(date -u +%Y-%m-%d), $(nproc) cores shared with other work, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start); medians of $RUNS runs of ${SECONDS_EACH} s each; a scrape every 250 ms (plain: the harness' client; TLS: curl, whose own start is in the time)."
  echo
  echo "| flood | scrapes (failed) | scrape median / max (ms), budget 25% | HTTP thread CPU, budget 25% | scrape median / max (ms), no budget | HTTP thread CPU, no budget |"
  echo "|---|---|---|---|---|---|"
} >"$out"
for flood in none none-tls hold hold-tls churn body tls-handshakes scrapes; do
  with=$(mktemp) without=$(mktemp)
  for i in $(seq "$RUNS"); do
    "$BIN" "$flood" "$SECONDS_EACH" 25 >>"$with"
    "$BIN" "$flood" "$SECONDS_EACH" 100 >>"$without"
  done
  scrapes=$(awk '{s+=$3; f+=$4} END {print s " (" f ")"}' "$with" "$without")
  echo "| $flood | $scrapes | $(col 5 "$with") / $(col 6 "$with") | $(col 7 "$with")% | $(col 5 "$without") / $(col 6 "$without") | $(col 7 "$without")% |" >>"$out"
  rm -f "$with" "$without"
done
cat "$out"
write_section http_floods "$out"
rm -f "$out"
