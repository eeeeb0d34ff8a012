#!/usr/bin/env bash
# Builds the images offline, as OCI archives:
#   deploy/image/build.sh [build-dir]  ->  <build-dir>/image/jvmsight-agent-<version>.oci.tar
#                                          <build-dir>/image/jvmsight-injector-<version>.oci.tar
# Builds what it needs in <build-dir> (default: build), fills a context per
# image, then runs buildah with its storage inside <build-dir>/image, so
# nothing lands in /var/lib/containers. One function per image. Load an
# archive with `podman load -i <archive>` or `skopeo copy
# oci-archive:<archive> docker://<registry>/<name>:<version>`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(mkdir -p "${1:-$root/build}" && cd "${1:-$root/build}" && pwd)
for tool in buildah cmake patchelf; do
  command -v "$tool" >/dev/null || { echo "build.sh: '$tool' is missing (scripts/quickstart.sh test installs it)" >&2; exit 1; }
done
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
  { echo "build.sh: /bin/busybox must be the static one (Debian: apt-get install busybox-static)" >&2; exit 1; }

version=$(sed -n 's/^project(jvmsight VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
out=$build/image
storage=(--storage-driver vfs --root "$out/storage" --runroot "$out/run")
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target jvmsight jvmsight-injector -j"$(nproc)" >/dev/null

# buildah bud of <containerfile> in <context>, pushed to <name>-<version>.oci.tar.
build_image() {
  local name=$1 containerfile=$2 context=$3
  local image=localhost/$name:$version archive=$out/$name-$version.oci.tar
  buildah "${storage[@]}" bud --quiet --isolation chroot --build-arg "VERSION=$version" \
    -f "$containerfile" -t "$image" "$context" >/dev/null
  rm -f "$archive"
  buildah "${storage[@]}" push --quiet "$image" "oci-archive:$archive:$name:$version"
  buildah "${storage[@]}" rmi "$image" >/dev/null
  echo "image: $archive"
}

# The agent: the portable bundle (bundle.sh, checked by check_bundle.py)
# and a static busybox for the copy.
agent_image() {
  local context=$out/context
  rm -rf "$context" && mkdir -p "$context"
  "$here/bundle.sh" "$build/agent" "$context/bundle"
  /usr/bin/python3 "$here/check_bundle.py" "$context/bundle"
  cp /bin/busybox "$context/busybox"
  build_image jvmsight-agent "$here/Containerfile" "$context"
}

# The injector: the stripped binary and exactly the libraries it runs with
# (ldd's, plus OpenSSL 3, which it dlopen()s for HTTPS), at this machine's
# paths, so the dynamic linker finds them with no configuration.
injector_image() {
  local context=$out/injector-context binary=$build/injector/jvmsight-injector
  rm -rf "$context" && mkdir -p "$context/rootfs/usr/bin"
  install -m 0755 "$binary" "$context/rootfs/usr/bin/jvmsight-injector"
  strip "$context/rootfs/usr/bin/jvmsight-injector"
  local libs lib ssl
  ssl=$(/sbin/ldconfig -p | awk '/^\tlibssl\.so\.3 .*x86-64/ && !n++ {print $NF}')
  [ -n "$ssl" ] || { echo "build.sh: no libssl.so.3 (Debian: libssl3)" >&2; exit 1; }
  libs=$( { ldd "$binary"; ldd "$ssl"; echo " $ssl"; } | awk '/=> \// {print $3} /^\t\// {print $1} /^ \// {print $1}' | sort -u)
  for lib in $libs; do
    mkdir -p "$context/rootfs$(dirname "$lib")"
    cp -L "$lib" "$context/rootfs$lib"
  done
  build_image jvmsight-injector "$here/Containerfile.injector" "$context"
}

agent_image
injector_image
