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
# The architecture is libjvmsight.so's own (x86-64, or aarch64 from
# scripts/cross_build.sh): dependencies are read from the ELF files, not by
# running them (elf_closure.sh).
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
case $(readelf -h "$agent_dir/libjvmsight.so" | sed -n 's/^ *Machine: *//p') in
  *X86-64) triplet=x86_64-linux-gnu ;;
  AArch64) triplet=aarch64-linux-gnu ;;
  *) echo "bundle: $agent_dir/libjvmsight.so is neither x86-64 nor aarch64" >&2; exit 1 ;;
esac
strip=strip
command -v "$triplet-strip" >/dev/null && strip=$triplet-strip
for tool in readelf "$strip" patchelf; do
  command -v "$tool" >/dev/null || { echo "bundle: '$tool' is missing (Debian: apt-get install patchelf binutils)" >&2; exit 1; }
done
here=$(cd "$(dirname "$0")" && pwd)

# Sonames that stay with the image (see above).
system_libs='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libmvec\.so\.1|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libanl\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'

rm -rf "$out"
mkdir -p "$out"
shopt -s nullglob
agent_libs=("$agent_dir"/*.so)
for lib in "${agent_libs[@]}"; do
  install -m 0755 "$lib" "$out/$(basename "$lib")"
done
# Loaded at run time by the agent, so in no NEEDED entry: found where this
# architecture's libraries live.
runtime_libs=()
for soname in libssl.so.3; do
  path=$(readlink -f "/usr/lib/$triplet/$soname") || true
  [ -f "$path" ] || { echo "bundle: $soname (HTTPS) for $triplet is not on this machine (Debian: apt-get install libssl3)" >&2; exit 1; }
  install -m 0755 "$path" "$out/$soname"
  runtime_libs+=("$out/$soname")
done

# The whole closure (dependencies of dependencies too), minus what stays
# with the image.
closure=$("$here/elf_closure.sh" "$triplet" "${agent_libs[@]}" "${runtime_libs[@]}")
while read -r soname path; do
  [[ $soname =~ $system_libs ]] && continue
  [ -e "$out/$soname" ] || install -m 0755 "$path" "$out/$soname"
done <<<"$closure"

for f in "$out"/*.so*; do
  "$strip" --strip-unneeded "$f"
  patchelf --set-rpath '$ORIGIN' "$f"
done
echo "bundle ($triplet): $(cd "$out" && ls -d ./*.so* 2>/dev/null | sed 's|^\./||' | tr '\n' ' ')-> $out"
