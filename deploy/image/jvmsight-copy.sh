#!/bin/busybox sh
# The agent image's copy step (/bin/jvmsight-copy, run by the init
# container): places the bundle of /opt/jvmsight into the volume mounted at
# /jvmsight, where the Java container's JAVA_TOOL_OPTIONS names
# /jvmsight/libjvmsight-loader.so. busybox sh and its applets only: the
# image has no libc and no other shell.
#
# The JVM refuses to start when the file -agentpath names is missing, and
# crashes (SIGBUS in the dynamic linker) on a half-written one; once the
# loader is there it always starts, because the loader fails open when
# libjvmsight.so cannot be loaded. So:
# - every file is copied to a staging name, checked against the image's
#   SHA256SUMS and renamed into place (rename(2) is atomic: no name ever
#   holds a partial file);
# - the loader goes first; libjvmsight.so, which the loader loads, goes last
#   and only when all the others are in place.
# Outcomes (docs/KUBERNETES.md, "When the copy cannot complete"):
# - all placed: exit 0;
# - the loader placed, not the rest: exit 0 with one line saying why; the
#   JVM starts without the agent and the loader says so in its log;
# - the loader cannot be placed: exit 1 with one line saying why and what to
#   do. The JVM could not start anyway, and a failing init container is
#   where Kubernetes shows it (Init:Error, the line as its termination
#   message) and retries it.
set -u
src=/opt/jvmsight
dest=/jvmsight
loader=libjvmsight-loader.so
agent=libjvmsight.so

say() { echo "jvmsight: $*" >&2; }
fail() {
  say "$*"
  exit 1
}

# The volume: mounted here, writable, not noexec (the JVM maps the agent
# executable). /proc/self/mountinfo's fifth field is the mount point, the
# sixth its per-mount options; the last mount on a path is the one seen.
options=$(awk -v d="$dest" '$5 == d { o = $6 } END { print o }' /proc/self/mountinfo)
[ -n "$options" ] ||
  fail "nothing is mounted at $dest in the init container: mount the pod's jvmsight-agent emptyDir there, as the injector, the chart and the kustomize component do"
case ",$options," in
  *,ro,*) fail "$dest is mounted read-only in the init container: mount the jvmsight-agent emptyDir there writable (readOnly: false)" ;;
  *,noexec,*) fail "$dest is mounted noexec: the JVM could not map the agent; use an emptyDir volume" ;;
esac
[ -f "$src/SHA256SUMS" ] || fail "the image has no $src/SHA256SUMS: it is not a complete jvmsight-agent image"

# place <name> <sha256>: the file under its name, complete and checked, or
# a non-zero status and the reason in $why.
place() {
  staged=$dest/.$1.partial
  rm -f "$staged"
  if ! why=$(cp "$src/$1" "$staged" 2>&1); then
    rm -f "$staged"
    why="copying $1: ${why:-cp failed}"
    return 1
  fi
  sum=$(sha256sum "$staged" 2>&1)
  if [ "${sum%% *}" != "$2" ]; then
    rm -f "$staged"
    why="$1 as copied does not match the image's SHA256SUMS"
    return 1
  fi
  why=$(mv -f "$staged" "$dest/$1" 2>&1) || { rm -f "$staged"; why="renaming $1: $why"; return 1; }
}

loader_sum=$(awk -v n="$loader" '$2 == n { print $1 }' "$src/SHA256SUMS")
[ -n "$loader_sum" ] || fail "the image's SHA256SUMS has no $loader: it is not a jvmsight-agent image of this release"
place "$loader" "$loader_sum" ||
  fail "cannot place the loader in $dest ($why); the Java container cannot start without it: make room in the volume, or re-pull the image if its files are damaged"

# Until the end, no agent: a partial copy leaves the loader to report it.
rm -f "$dest/$agent"
count=1
agent_sum=""
why=""
while read -r sum name; do
  case $name in
    "$loader") continue ;;
    "$agent") agent_sum=$sum; continue ;;
  esac
  place "$name" "$sum" || break
  count=$((count + 1))
done <"$src/SHA256SUMS"
if [ -n "$why" ] || [ -z "$agent_sum" ] || ! place "$agent" "$agent_sum"; then
  say "the agent is not in $dest (${why:-the image's SHA256SUMS has no $agent}), only its loader: the JVM starts without jvmsight and the loader says so in its log; once that is fixed, a new pod gets the agent"
  exit 0
fi
echo "jvmsight: $((count + 1)) files placed in $dest and checked against SHA256SUMS"
