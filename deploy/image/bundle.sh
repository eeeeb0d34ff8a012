#!/usr/bin/env bash
# Makes the portable agent bundle: every .so of the agent build directory
# (libjvmsight.so, libjvmsight-otlp.so) plus every library
# they need that a JVM image cannot be expected to have, in one flat
# directory. Each file is stripped and gets RUNPATH $ORIGIN, so the dynamic
# linker finds the bundled libraries next to the one that needs them,
# whatever image the bundle is copied into. OpenSSL 3 (libssl.so.3 and
# libcrypto.so.3) travels too: the agent dlopen()s it for HTTPS (see
# exporters/http/tls.cpp), which ldd cannot see.
#
#   deploy/image/bundle.sh <build-dir>/agent <out-dir>
#
# Left out on purpose, and expected from the JVM's image:
# - glibc (libc, libm, libpthread, libdl, librt, libresolv, the loader):
#   it must match the image's own, so it can never travel.
# - the GCC C++ runtime (libstdc++.so.6, libgcc_s.so.1): Debian 12's copies
#   need glibc 2.36 and 2.35, which would shut out Ubuntu 22.04, Amazon Linux
#   2023 and UBI 9; every JVM base image already ships a newer-or-equal one.
# check_bundle.py enforces both floors.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 <agent-build-dir> <out-dir>" >&2; exit 2; }
agent_dir=$1 out=$2
[ -f "$agent_dir/libjvmsight.so" ] || { echo "bundle: no libjvmsight.so in $agent_dir (build the agent first)" >&2; exit 1; }
for tool in ldd strip patchelf; do
  command -v "$tool" >/dev/null || { echo "bundle: '$tool' is missing (Debian: apt-get install patchelf binutils)" >&2; exit 1; }
done

# Sonames that stay with the image (see above).
system_libs='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|libc\.so\.6|libm\.so\.6|libmvec\.so\.1|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libanl\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'

rm -rf "$out"
mkdir -p "$out"
shopt -s nullglob
agent_libs=("$agent_dir"/*.so)
for lib in "${agent_libs[@]}"; do
  install -m 0755 "$lib" "$out/$(basename "$lib")"
done
# Loaded at run time by the agent, so not in any ldd output: found where
# this machine's dynamic linker finds it.
runtime_libs=()
for soname in libssl.so.3; do
  # awk reads to the end: quitting early would kill ldconfig with SIGPIPE,
  # which pipefail turns into a silent exit of this script.
  path=$(/sbin/ldconfig -p | awk -v n="$soname" '$1 == n && /x86-64/ && !found {found = $NF} END {print found}')
  [ -n "$path" ] || { echo "bundle: $soname (HTTPS) is not on this machine (Debian: apt-get install libssl3)" >&2; exit 1; }
  install -m 0755 "$(readlink -f "$path")" "$out/$soname"
  runtime_libs+=("$out/$soname")
done

# ldd lists the whole closure (dependencies of dependencies too), resolved on
# this build machine.
for lib in "${agent_libs[@]}" "${runtime_libs[@]}"; do
  ldd "$lib" | while read -r soname arrow path _; do
    [ "$arrow" = "=>" ] || continue
    [[ $soname =~ $system_libs ]] && continue
    [ "$path" = "not" ] && { echo "bundle: $lib needs $soname, which is not found on this machine" >&2; exit 1; }
    [ -e "$out/$soname" ] || install -m 0755 "$(readlink -f "$path")" "$out/$soname"
  done
done

for f in "$out"/*.so*; do
  strip --strip-unneeded "$f"
  patchelf --set-rpath '$ORIGIN' "$f"
done
echo "bundle: $(cd "$out" && ls -d ./*.so* 2>/dev/null | sed 's|^\./||' | tr '\n' ' ')-> $out"
