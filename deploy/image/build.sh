#!/usr/bin/env bash
# Builds the agent image offline, as an OCI archive:
#   deploy/image/build.sh [build-dir]   ->  <build-dir>/image/jvmsight-agent-<version>.oci.tar
# Builds the agent in <build-dir> (default: build) if needed, bundles it
# (bundle.sh), checks the bundle (check_bundle.py), then runs buildah with its
# storage inside <build-dir>/image, so nothing lands in /var/lib/containers.
# Load the result with `podman load -i <archive>` or `skopeo copy
# oci-archive:<archive> docker://<registry>/jvmsight-agent:<version>`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(mkdir -p "${1:-$root/build}" && cd "${1:-$root/build}" && pwd)
for tool in buildah cmake; do
  command -v "$tool" >/dev/null || { echo "build.sh: '$tool' is missing (scripts/quickstart.sh test installs it)" >&2; exit 1; }
done
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
  { echo "build.sh: /bin/busybox must be the static one (Debian: apt-get install busybox-static)" >&2; exit 1; }

version=$(sed -n 's/^project(jvmsight VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
out=$build/image
context=$out/context
archive=$out/jvmsight-agent-$version.oci.tar

[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target jvmsight -j"$(nproc)" >/dev/null

rm -rf "$context" && mkdir -p "$context"
"$here/bundle.sh" "$build/agent" "$context/bundle"
/usr/bin/python3 "$here/check_bundle.py" "$context/bundle"
cp /bin/busybox "$context/busybox"

storage=(--storage-driver vfs --root "$out/storage" --runroot "$out/run")
image=localhost/jvmsight-agent:$version
buildah "${storage[@]}" bud --quiet --isolation chroot --build-arg "VERSION=$version" \
  -f "$here/Containerfile" -t "$image" "$context" >/dev/null
rm -f "$archive"
buildah "${storage[@]}" push --quiet "$image" "oci-archive:$archive:jvmsight-agent:$version"
buildah "${storage[@]}" rmi "$image" >/dev/null
echo "image: $archive"
