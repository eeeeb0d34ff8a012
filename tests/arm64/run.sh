#!/usr/bin/env bash
# Integration tests of the arm64 agent in an arm64 Debian 12 root under
# qemu-user, with Debian's arm64 OpenJDK 17 (docs/ARM64.md):
#   tests/arm64/run.sh <host-build> <arm64-build> <root>
# The x86-64 integration test binary of <host-build> drives the JVMs, as it
# does on the host: its JDK is a home of wrappers (<host-build>/arm64-jdk/bin/*)
# that run the root's tools through chroot, and JVMSIGHT_TEST_AGENT points it
# at the arm64 bundle's libjvmsight.so. Same pid namespace and network, so
# pids, jstack's attach and the loopback scrapes work unchanged.
#
# Emulation makes a JVM several times slower, so only this subset runs
# (about a minute; each test compares with the JVM's own answers):
subset=(
  'Jdks/ThreadMetrics.CountsMatchThreadMXBeanExactly/*'    # thread states vs ThreadMXBean
  'Jdks/Deadlock.MatchesThreadMXBeanAndJstack/*_monitor2'  # monitor deadlock vs ThreadMXBean, jstack
  'Jdks/Deadlock.MatchesThreadMXBeanAndJstack/*_reentrant' # j.u.c. deadlock vs ThreadMXBean, jstack
  # GC counts vs the GarbageCollectorMXBeans. ZGC: its pauses need no
  # attribution by notification (one pause bean on JDK 17, notifications off
  # by default), so every count is compared exactly. With G1, Serial and
  # Parallel the suite matches each pause to its notification by millisecond
  # timestamps, which emulation's slowness breaks (measured here: G1 10
  # pauses unattributed, Parallel 12 of 16): a limit of the test, not of
  # the agent, so they stay with the x86-64 runs.
  'JdksAndCollectors/GcPauses.CountsAndTimesMatchGarbageCollectorMXBeans/*_Z'
)
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 <host-build> <arm64-build> <root>" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
host=$(realpath "$1") arm64=$(realpath "$2") root=$(realpath "$3")
jdk_in_root=/usr/lib/jvm/java-17-openjdk-arm64
[ -f "$arm64/bundle/libjvmsight.so" ] || { echo "run.sh: no arm64 bundle in $arm64 (scripts/cross_build.sh arm64)" >&2; exit 1; }
[ -x "$host/tests/integration_tests" ] || { echo "run.sh: no $host/tests/integration_tests" >&2; exit 1; }

if [ -z "${JVMSIGHT_ARM64_NS:-}" ]; then
  "$here/root.sh" binfmt
  JVMSIGHT_ARM64_NS=1 exec unshare --mount --propagation private "$0" "$@"
fi

# Inside a mount namespace of our own: the mounts end with this script.
"$here/root.sh" mounts "$root" "$host" "$arm64"
home=$host/arm64-jdk
rm -rf "$home" && mkdir -p "$home/bin"
cp "$root$jdk_in_root/release" "$home/release"
for tool in java javac jcmd jstack; do
  printf '#!/bin/sh\nexec /usr/sbin/chroot %s %s/bin/%s "$@"\n' "$root" "$jdk_in_root" "$tool" >"$home/bin/$tool"
  chmod +x "$home/bin/$tool"
done
# Only the arm64 JDK: no extra JDK roots (scripts/install_jdks.sh's x86-64 ones).
no_roots=$host/arm64-no-jdk-roots
mkdir -p "$no_roots"
filter=$(IFS=:; echo "${subset[*]}")
JVMSIGHT_TEST_JDKS=$home JVMSIGHT_JDK_ROOTS=$no_roots JVMSIGHT_TEST_AGENT=$arm64/bundle/libjvmsight.so JVMSIGHT_TEST_EMULATED=1 \
  "$host/tests/integration_tests" --gtest_filter="$filter"
