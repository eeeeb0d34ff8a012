#!/usr/bin/env bash
# Installs the extra test JDKs (8, 11, 21) from Debian's registry into a
# private directory, as root, without touching the machine's apt sources or
# its own JDK:
#
#   scripts/install_jdks.sh [DEST]      (default: build/jdk-roots)
#
# DEST/host/usr/lib/jvm/java-11-openjdk-amd64
#     JDK 11 from Debian 11's security suite: runs on Debian 12 as is.
# DEST/trixie/usr/lib/jvm/java-{8,21}-openjdk-amd64
#     A Debian 13 root (debootstrap minbase): JDK 21 (trixie) and JDK 8 (sid)
#     need glibc 2.38. The tests run them with chroot (tests/harness/jdks.cpp).
#
# The registry's addresses come from /etc/apt/sources.list.d/debian.sources
# (never written into the repo). apt runs on a private configuration under
# DEST/apt: its own source list, lists and cache. A JDK already there is kept.
set -euo pipefail
DEST=${1:-$(cd "$(dirname "$0")/.." && pwd)/build/jdk-roots}
SOURCES=/etc/apt/sources.list.d/debian.sources
ARCH=$(dpkg --print-architecture)
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
log() { echo "install_jdks: $*"; }

# The first URI given for a suite matching the pattern (deb822 stanzas).
uri_for() {
  awk -v pat="$1" '/^URIs:/ {u=$2} /^Suites:/ {for (i=2;i<=NF;i++) if ($i ~ pat) {print u; exit}} /^$/ {u=""}' "$SOURCES"
}
MIRROR=$(uri_for '^[a-z]+$')
SECURITY=$(uri_for '-security$')
[ -n "$MIRROR" ] && [ -n "$SECURITY" ] || { echo "install_jdks: no Debian URIs in $SOURCES" >&2; exit 1; }

APT=$DEST/apt
apt_private() {
  apt-get -q -o Dir::Etc::SourceList="$APT/sources.list" -o Dir::Etc::SourceParts="$APT/none" \
    -o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o Dir::State::Status="$APT/status" \
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root -o APT::Architecture="$ARCH" "$@"
}
setup_apt() {
  mkdir -p "$APT/none" "$APT/lists/partial" "$APT/cache/archives/partial"
  touch "$APT/status"
  local key=/usr/share/keyrings/debian-archive-keyring.gpg
  cat >"$APT/sources.list" <<EOF
deb [signed-by=$key] $SECURITY bullseye-security main
deb [signed-by=$key] $MIRROR sid main
EOF
  apt_private update >"$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; return 1; }
}
# Downloads packages (name/suite) with the private configuration and unpacks
# them into a root.
unpack_into() {
  local root=$1
  shift
  local dl=$APT/debs
  mkdir -p "$dl"
  for p in "$@"; do rm -f "$dl/${p%%/*}"_*.deb; done
  (cd "$dl" && apt_private download "$@" >/dev/null)
  for p in "$@"; do dpkg -x "$(ls "$dl/${p%%/*}"_*.deb | head -1)" "$root"; done
}
# Debian's JDKs reach their configuration through absolute links into
# /etc/java-N-openjdk; outside a chroot they must point into the private copy.
relink_etc() {
  local root=$1
  find "$root/usr/lib/jvm" -type l -lname '/etc/*' | while read -r l; do
    ln -sfn "$root$(readlink "$l")" "$l"
  done
}

jdk11() {
  local root=$DEST/host home=$DEST/host/usr/lib/jvm/java-11-openjdk-$ARCH
  [ -x "$home/bin/jcmd" ] && return
  log "JDK 11 (bullseye-security) into $root"
  unpack_into "$root" openjdk-11-jre-headless/bullseye-security openjdk-11-jdk-headless/bullseye-security
  relink_etc "$root"
}

trixie() {
  local root=$DEST/trixie
  if [ ! -x "$root/usr/lib/jvm/java-21-openjdk-$ARCH/bin/jcmd" ]; then
    log "Debian 13 root with JDK 21 (debootstrap, about a minute) into $root"
    # A debootstrap cut short may have left /proc mounted inside.
    findmnt -rn -o TARGET | { grep "^$root/" || true; } | sort -r | xargs -r umount -l
    rm -rf "$root"
    debootstrap --variant=minbase --include=openjdk-21-jdk-headless trixie "$root" "$MIRROR" >"$DEST/debootstrap.log" 2>&1 ||
      { tail -20 "$DEST/debootstrap.log" >&2; return 1; }
    rm -rf "$root/var/cache/apt/archives/"*.deb
  fi
  if [ ! -x "$root/usr/lib/jvm/java-8-openjdk-$ARCH/bin/jcmd" ]; then
    log "JDK 8 (sid) into $root"
    unpack_into "$root" openjdk-8-jre-headless/sid openjdk-8-jdk-headless/sid
  fi
}

if [ -x "$DEST/host/usr/lib/jvm/java-11-openjdk-$ARCH/bin/jcmd" ] &&
  [ -x "$DEST/trixie/usr/lib/jvm/java-21-openjdk-$ARCH/bin/jcmd" ] &&
  [ -x "$DEST/trixie/usr/lib/jvm/java-8-openjdk-$ARCH/bin/jcmd" ]; then
  log "done (already there): JDK 8, 11, 21 under $DEST"
  exit 0
fi
command -v debootstrap >/dev/null || { echo "install_jdks: debootstrap is missing (apt-get install debootstrap)" >&2; exit 1; }
setup_apt
jdk11
trixie
log "done: JDK 8, 11, 21 under $DEST"
