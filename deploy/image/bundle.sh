#!/usr/bin/env bash
# Makes the portable agent bundle: exactly the files deploy/image/bundle.list
# names, in one flat directory, plus SHA256SUMS (their hashes, in the list's
# order, which the image's copy step checks every copied file against).
# Each file is stripped and gets RUNPATH $ORIGIN, so the dynamic linker finds
# the bundled libraries next to the one that needs them, whatever image the
# bundle is copied into. OpenSSL 3 (libssl.so.3 and libcrypto.so.3) travels
# too: the agent dlopen()s it for HTTPS (see exporters/http/tls.cpp), which
# no NEEDED entry shows.
#
#   deploy/image/bundle.sh [--leave-out <name>]... <build-dir>/agent <out-dir>
#
# Nothing else of the build directory gets in (an old library left there by
# an earlier build stays out), and a listed file that is missing fails the
# bundle, naming it and its CMake target. --leave-out is for the test
# harness's bundle in a build configured without a listed target
# (-DJVMSIGHT_OTLP=OFF); the images never use it. So is
# --sanitizer-runtimes: a build under scripts/sanitize.sh links libasan and
# libubsan, which the harness's bundle must then carry (never an image's).
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
# check_bundle.py enforces both floors and the list.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
declare -A left_out=()
sanitizer_runtimes='^$'
while [ $# -gt 2 ]; do
  case $1 in
    --leave-out) left_out[$2]=1; shift 2 ;;
    --sanitizer-runtimes) sanitizer_runtimes='^lib(asan|ubsan|tsan)\.so\.[0-9]+$'; shift ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { echo "usage: $0 [--leave-out <name>]... [--sanitizer-runtimes] <agent-build-dir> <out-dir>" >&2; exit 2; }
agent_dir=$1 out=$2
[ -f "$agent_dir/libjvmsight.so" ] || { echo "bundle: no libjvmsight.so in $agent_dir (build the agent first)" >&2; exit 1; }
case $(readelf -h "$agent_dir/libjvmsight.so" | sed -n 's/^ *Machine: *//p') in
  *X86-64) triplet=x86_64-linux-gnu ;;
  AArch64) triplet=aarch64-linux-gnu ;;
  *) echo "bundle: $agent_dir/libjvmsight.so is neither x86-64 nor aarch64" >&2; exit 1 ;;
esac
strip=strip
command -v "$triplet-strip" >/dev/null && strip=$triplet-strip
for tool in readelf "$strip" patchelf sha256sum; do
  command -v "$tool" >/dev/null || { echo "bundle: '$tool' is missing (Debian: apt-get install patchelf binutils)" >&2; exit 1; }
done

# The list: names in order, and how each gets here.
names=()
declare -A how=() target=()
while read -r name kind tgt; do
  [[ -z $name || $name == \#* ]] && continue
  names+=("$name") how[$name]=$kind target[$name]=${tgt:-}
done <"$here/bundle.list"

# Sonames that stay with the image (see above).
system_libs='^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|ld-linux-aarch64\.so\.1|libc\.so\.6|libm\.so\.6|libmvec\.so\.1|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libresolv\.so\.2|libutil\.so\.1|libanl\.so\.1|libstdc\+\+\.so\.6|libgcc_s\.so\.1)$'

rm -rf "$out"
mkdir -p "$out"
roots=()
for name in "${names[@]}"; do
  [ -n "${left_out[$name]:-}" ] && continue
  case ${how[$name]} in
    built)
      [ -f "$agent_dir/$name" ] || { echo "bundle: $agent_dir/$name is missing (CMake target ${target[$name]}; deploy/image/build.sh builds it)" >&2; exit 1; }
      install -m 0755 "$agent_dir/$name" "$out/$name" ;;
    loaded)
      path=$(readlink -f "/usr/lib/$triplet/$name") || true
      [ -f "$path" ] || { echo "bundle: $name (loaded at run time) for $triplet is not on this machine (Debian: apt-get install libssl3)" >&2; exit 1; }
      install -m 0755 "$path" "$out/$name" ;;
    needed) continue ;;
    *) echo "bundle: bundle.list: '$name' has no known source ('${how[$name]}')" >&2; exit 1 ;;
  esac
  roots+=("$out/$name")
done

# The whole closure (dependencies of dependencies too), minus what stays
# with the image: each must be listed, and each listed one needed.
declare -A in_closure=()
closure=$("$here/elf_closure.sh" "$triplet" "${roots[@]}")
while read -r soname path; do
  [[ $soname =~ $system_libs ]] && continue
  if [[ $soname =~ $sanitizer_runtimes ]]; then
    install -m 0755 "$path" "$out/$soname"
    continue
  fi
  in_closure[$soname]=1
  [ -n "${how[$soname]:-}" ] ||
    { echo "bundle: the agent's libraries need $soname, which deploy/image/bundle.list does not name (add it as needed)" >&2; exit 1; }
  [ "${how[$soname]}" = needed ] && install -m 0755 "$path" "$out/$soname"
done <<<"$closure"
for name in "${names[@]}"; do
  [ "${how[$name]}" = needed ] && [ -z "${in_closure[$name]:-}" ] && [ ${#left_out[@]} -eq 0 ] &&
    { echo "bundle: deploy/image/bundle.list names $name as needed, but nothing in the bundle needs it" >&2; exit 1; }
done

sums=()
for name in "${names[@]}"; do
  [ -f "$out/$name" ] || continue
  "$strip" --strip-unneeded "$out/$name"
  patchelf --set-rpath '$ORIGIN' "$out/$name"
  sums+=("$(cd "$out" && sha256sum "$name")")
done
printf '%s\n' "${sums[@]}" >"$out/SHA256SUMS"
echo "bundle ($triplet): $(cd "$out" && sed 's/^[0-9a-f]*  //' SHA256SUMS | tr '\n' ' ')-> $out"
