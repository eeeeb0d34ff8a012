#!/usr/bin/env bash
# The deadlock check with many virtual threads alive (JDK 21+): its median
# (walks are spaced out, so most checks skip them) and its max (a check that
# walked every virtual thread). About 25 s per count.
# Usage: bench/virtual_walk_bench.sh [java_home] [counts...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
java_home=${1:-/usr/lib/jvm/temurin-25-jdk-amd64}
shift $(( $# > 0 ? 1 : 0 ))
counts=("$@")
[ ${#counts[@]} -eq 0 ] && counts=(0 10000 100000)
agent=${JVMSIGHT_AGENT:-$here/../build/agent/libjvmsight.so}
[ -f "$agent" ] || { echo "build first: cmake -S . -B build && make -C build (no $agent)" >&2; exit 1; }
[ -x "$java_home/bin/java" ] || { echo "no JDK at $java_home (virtual threads need 21+)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$java_home/bin/javac" --release 17 -d "$work" "$here/java/VirtualWalkBench.java" "$here/java/AgentMetrics.java" "$here/java/Io.java"
echo "java: $("$java_home/bin/java" -version 2>&1 | head -1); $(nproc) CPUs; load $(cut -d' ' -f1-3 /proc/loadavg)"
for n in "${counts[@]}"; do
  rm -f "$work/port"
  "$java_home/bin/java" -cp "$work" "-agentpath:$agent=port=0,host=127.0.0.1,portfile=$work/port" \
    VirtualWalkBench "$n" "$work/port" 2>/dev/null | sed -n 's/^RESULT //p'
done
