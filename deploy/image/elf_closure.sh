#!/usr/bin/env bash
# Every shared library the given ELF files need, directly or through each
# other, for one architecture, read from their NEEDED entries (readelf), so
# it works for files this machine cannot run (the arm64 build):
#   deploy/image/elf_closure.sh <triplet> <elf>...   ->  "<soname> <path>" lines
# Libraries are found where Debian's multiarch puts them (/usr/lib/<triplet>,
# where :arm64 packages land too); <path> is the real file. Used by bundle.sh
# (the agent bundle) and build.sh (the injector image). Fails, naming it,
# when a library is not on this machine.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 <triplet> <elf>..." >&2; exit 2; }
triplet=$1
shift
declare -A seen=()
pending=("$@")
while [ ${#pending[@]} -gt 0 ]; do
  elf=${pending[0]}
  pending=("${pending[@]:1}")
  for soname in $(readelf -dW "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [ -n "${seen[$soname]:-}" ] && continue
    path=""
    for dir in "/usr/lib/$triplet" "/lib/$triplet"; do
      [ -e "$dir/$soname" ] && { path=$(readlink -f "$dir/$soname"); break; }
    done
    [ -n "$path" ] || { echo "elf_closure: $elf needs $soname, which is not on this machine for $triplet" >&2; exit 1; }
    seen[$soname]=$path
    echo "$soname $path"
    pending+=("$path")
  done
done
