#!/usr/bin/env bash
# An arm64 machine without arm64 hardware: qemu-user (Debian's
# qemu-user-static) registered with binfmt_misc by hand, and a Debian 12 arm64
# root with Debian's arm64 OpenJDK 17 made by debootstrap.
#   tests/arm64/root.sh binfmt          mount binfmt_misc and register qemu-aarch64
#   tests/arm64/root.sh make <root>     binfmt, then the root (once: <root>/.complete)
#   tests/arm64/root.sh mounts <root> <dir>...
#                                       /proc, /dev, /tmp and each <dir> at its own
#                                       path inside the root, so agent, classes,
#                                       temp and attach files have one path inside
#                                       and out. Call it in a mount namespace of
#                                       its own (unshare -m): the mounts go with it.
# Root only. The registry comes from this machine's apt sources, never from
# the repository. `make` is safe to run twice at once (scripts/quickstart.sh
# starts it in the background, ctest's arm64.root waits for it): a lock
# serialises them and the second finds the root complete.
set -euo pipefail
binfmt=/proc/sys/fs/binfmt_misc

register_binfmt() {
  [ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt"
  [ -e "$binfmt/qemu-aarch64" ] && return
  local conf=/usr/lib/binfmt.d/qemu-aarch64.conf
  [ -f "$conf" ] || { echo "root.sh: $conf is missing (Debian: apt-get install qemu-user-static)" >&2; exit 1; }
  # Flag F (in Debian's line): the kernel opens the interpreter now, so it
  # runs inside a chroot that has no qemu of its own.
  cat "$conf" >"$binfmt/register"
}

# The first URI of the machine's own Debian (not -security) source.
mirror() {
  awk '/^URIs:/ && $2 !~ /security/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources
}

make_root() {
  local root=$1
  mkdir -p "$(dirname "$root")"
  exec 9>"$root.lock"
  flock 9
  [ -e "$root/.complete" ] && return
  rm -rf "$root"
  local start=$SECONDS
  debootstrap --arch=arm64 --variant=minbase --include=openjdk-17-jdk-headless bookworm "$root" "$(mirror)" \
    >"$root.log" 2>&1 || { tail -20 "$root.log" >&2; echo "root.sh: debootstrap failed ($root.log)" >&2; exit 1; }
  chroot "$root" /usr/lib/jvm/java-17-openjdk-arm64/bin/java -version 2>&1 | sed 's/^/root.sh: /'
  touch "$root/.complete"
  echo "root.sh: arm64 Debian 12 root with OpenJDK 17 in $root ($((SECONDS - start)) s)"
}

mount_into() {
  local root=$1
  shift
  [ -e "$root/.complete" ] || { echo "root.sh: no complete root at $root (root.sh make)" >&2; exit 1; }
  mount -t proc proc "$root/proc"
  local dir
  for dir in /dev /tmp "$@"; do
    mkdir -p "$root$dir"
    mount --bind "$dir" "$root$dir"
  done
}

case "${1:-}" in
  binfmt) register_binfmt ;;
  make) [ $# -eq 2 ] || { echo "usage: $0 make <root>" >&2; exit 2; }
    register_binfmt
    make_root "$(realpath -m "$2")" ;;
  mounts) [ $# -ge 2 ] || { echo "usage: $0 mounts <root> <dir>..." >&2; exit 2; }
    shift
    mount_into "$@" ;;
  *) echo "usage: $0 binfmt | make <root> | mounts <root> <dir>..." >&2; exit 2 ;;
esac
