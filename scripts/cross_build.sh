#!/usr/bin/env bash
# The arm64 (aarch64) agent, cross-built on an x86-64 Debian 12 machine:
#   scripts/cross_build.sh arm64 [build-dir]   (default build-dir: build/arm64)
# Configures <build-dir> with cmake/aarch64-linux-gnu.cmake, builds only what
# ships (the targets deploy/image/bundle.list names, as for x86-64, and the
# injector), then makes the portable bundle in
# <build-dir>/bundle (deploy/image/bundle.sh, the same layout and $ORIGIN
# rule as the x86-64 one) and checks it (deploy/image/check_bundle.py
# --arch arm64: every file aarch64, glibc floor). No tests are built here:
# they run under qemu against this build (tests/arm64/).
# Needs crossbuild-essential-arm64 and the :arm64 -dev packages
# (scripts/quickstart.sh test installs them).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
arch=${1:-}
[ "$arch" = arm64 ] || { echo "usage: $0 arm64 [build-dir]" >&2; exit 2; }
build=$(mkdir -p "${2:-$root/build/arm64}" && cd "${2:-$root/build/arm64}" && pwd)
command -v aarch64-linux-gnu-g++ >/dev/null ||
  { echo "cross_build: aarch64-linux-gnu-g++ is missing (scripts/quickstart.sh test installs it)" >&2; exit 1; }

# Line tables only (-g1): the bundle strips every file, and a crash under
# qemu needs no more than file and line; full debug information made each
# file take about 1.2 times as long to compile (five files at random).
cmake -S "$root" -B "$build" -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJVMSIGHT_BUILD_TESTS=OFF \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" >/dev/null
# What the bundle and the images carry.
read -r -a targets <<<"$(awk '!/^#/ && $2 == "built" { printf "%s ", $3 }' "$root/deploy/image/bundle.list") jvmsight-injector"
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}" >/dev/null

"$root/deploy/image/bundle.sh" "$build/agent" "$build/bundle"
/usr/bin/python3 "$root/deploy/image/check_bundle.py" --arch arm64 "$build/bundle"
