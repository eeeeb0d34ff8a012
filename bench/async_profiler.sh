#!/usr/bin/env bash
# Prints the path of async-profiler's libasyncProfiler.so for the peer runs of
# the contention bench, building it from source under bench/async-profiler/
# (never committed) if needed. async-profiler is neither in Debian nor on npm;
# its source comes from GitHub (github.com/async-profiler/async-profiler).
# Exit 1 with what is missing when it cannot be had.
#   ASYNC_PROFILER_LIB=/path/libasyncProfiler.so: use that build instead.
#   ASYNC_PROFILER_SRC=/path/to/a/checkout (or a bare git directory): build from there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -n "${ASYNC_PROFILER_LIB:-}" ]; then
  [ -f "$ASYNC_PROFILER_LIB" ] || { echo "ASYNC_PROFILER_LIB=$ASYNC_PROFILER_LIB: no such file" >&2; exit 1; }
  echo "$ASYNC_PROFILER_LIB"
  exit 0
fi
dir=$here/async-profiler
lib=$dir/build/lib/libasyncProfiler.so
if [ ! -f "$lib" ]; then
  src=${ASYNC_PROFILER_SRC:-}
  if [ ! -f "$dir/Makefile" ]; then
    if [ -z "$src" ] || { [ ! -f "$src/Makefile" ] && ! git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1; }; then
      echo "async-profiler is not here: clone https://github.com/async-profiler/async-profiler into $dir" \
           "(or set ASYNC_PROFILER_SRC to a checkout, or ASYNC_PROFILER_LIB to a built libasyncProfiler.so)" >&2
      exit 1
    fi
    mkdir -p "$dir"
    if [ -f "$src/Makefile" ]; then
      cp -r "$src"/. "$dir"
    else
      git --git-dir="$src" archive HEAD | tar -x -C "$dir"
    fi
  fi
  echo "building async-profiler in $dir (once)" >&2
  make -C "$dir" JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 build/lib build/lib/libasyncProfiler.so >&2
fi
echo "$lib"
