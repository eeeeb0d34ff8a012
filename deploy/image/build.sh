#!/usr/bin/env bash
# Builds the images offline, as OCI archives, each one image index holding
# linux/amd64 and linux/arm64:
#   deploy/image/build.sh [build-dir]  ->  <build-dir>/image/jvmsight-agent-<version>.oci.tar
#                                          <build-dir>/image/jvmsight-injector-<version>.oci.tar
# Builds exactly what the images carry, from whatever state <build-dir> is in
# (none, partial, or holding libraries of an older build): the targets
# deploy/image/bundle.list names and the injector, x86-64 in <build-dir>
# (default: build), arm64 in <build-dir>/arm64 (scripts/cross_build.sh, the
# same targets). Each architecture's bundle is exactly bundle.list's files
# (bundle.sh), and both are checked together (check_bundle.py: the list, the
# glibc floor, the same names on both). Then it fills a context per image and
# architecture and runs buildah with its storage inside <build-dir>/image, so
# nothing lands in /var/lib/containers. Images FROM scratch need no emulation
# to build for another architecture (buildah bud --arch); `bud --manifest`
# collects both into one list, pushed whole (--all). One function per image.
# Load an archive with `podman load -i <archive>` or `skopeo copy --all
# oci-archive:<archive> docker://<registry>/<name>:<version>`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(mkdir -p "${1:-$root/build}" && cd "${1:-$root/build}" && pwd)
for tool in buildah cmake patchelf apt-get dpkg; do
  command -v "$tool" >/dev/null || { echo "build.sh: '$tool' is missing (scripts/quickstart.sh test installs it)" >&2; exit 1; }
done
[ -x /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 ||
  { echo "build.sh: /bin/busybox must be the static one (Debian: apt-get install busybox-static)" >&2; exit 1; }

version=$(sed -n 's/^project(jvmsight VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")
out=$build/image
storage=(--storage-driver vfs --root "$out/storage" --runroot "$out/run")
arches=(amd64 arm64)
# What the images carry: bundle.list's built files and the injector.
read -r -a targets <<<"$(awk '!/^#/ && $2 == "built" { printf "%s ", $3 }' "$here/bundle.list") jvmsight-injector"
[ -f "$build/CMakeCache.txt" ] || cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
help=$(cmake --build "$build" --target help)
for target in "${targets[@]}"; do
  grep -qx "\.\.\. $target" <<<"$help" ||
    { echo "build.sh: $build has no target $target, which the images need (configured with -DJVMSIGHT_OTLP=OFF? use another build directory)" >&2; exit 1; }
done
cmake --build "$build" --target "${targets[@]}" -j"$(nproc)" >/dev/null
# The arm64 build: the same targets, its bundle made and checked.
"$root/scripts/cross_build.sh" arm64 "$build/arm64" >/dev/null

# Per architecture: its build directory and Debian's multiarch triplet.
build_of() { [ "$1" = amd64 ] && echo "$build" || echo "$build/$1"; }
triplet_of() { [ "$1" = amd64 ] && echo x86_64-linux-gnu || echo aarch64-linux-gnu; }

# A static busybox of this architecture: the machine's own for amd64;
# Debian's busybox-static:<arch> otherwise, downloaded and extracted (not
# installed: it would replace the machine's).
busybox_of() {
  local arch=$1
  [ "$arch" = amd64 ] && { echo /bin/busybox; return; }
  local dir=$out/busybox-$arch
  if [ ! -x "$dir/bin/busybox" ]; then
    rm -rf "$dir" && mkdir -p "$dir/deb"
    # apt downloads as its own user where it can (else it warns and uses root).
    id _apt >/dev/null 2>&1 && chown _apt "$dir/deb"
    (cd "$dir/deb" && apt-get download -q "busybox-static:$arch" >/dev/null) ||
      { echo "build.sh: apt-get download busybox-static:$arch failed (dpkg --add-architecture $arch; apt-get update)" >&2; exit 1; }
    dpkg -x "$dir"/deb/busybox-static_*.deb "$dir"
  fi
  echo "$dir/bin/busybox"
}

# buildah bud of <containerfile> in <context> for <arch>, into the list <name>:<version>.
build_image() {
  local name=$1 containerfile=$2 context=$3 arch=$4
  buildah "${storage[@]}" bud --quiet --isolation chroot --build-arg "VERSION=$version" --arch "$arch" --os linux \
    --manifest "localhost/$name:$version" -f "$containerfile" -t "localhost/$name:$version-$arch" "$context" >/dev/null
}

# The list, every architecture in it, to <name>-<version>.oci.tar; the local copies go.
push_index() {
  local name=$1 list=localhost/$1:$version archive=$out/$1-$version.oci.tar
  rm -f "$archive"
  buildah "${storage[@]}" manifest push --quiet --all "$list" "oci-archive:$archive:$name:$version"
  buildah "${storage[@]}" manifest rm "$list" >/dev/null
  for arch in "${arches[@]}"; do buildah "${storage[@]}" rmi "$list-$arch" >/dev/null; done
  echo "image: $archive (${arches[*]/#/linux/})"
}

# Clears what an interrupted run left (a list or images of the same name).
forget() {
  buildah "${storage[@]}" manifest rm "localhost/$1:$version" >/dev/null 2>&1 || true
  for arch in "${arches[@]}"; do buildah "${storage[@]}" rmi "localhost/$1:$version-$arch" >/dev/null 2>&1 || true; done
}

# The archive of <name> from <containerfile> and one context per
# architecture (<context-prefix>-<arch>), unless the archive there was built
# from the same inputs (every context file's mode and hash, the
# Containerfile, the version): a second run after the first (CI's, say)
# costs the bundling, not buildah.
build_index() {
  local name=$1 containerfile=$2 prefix=$3 archive=$out/$1-$version.oci.tar inputs arch
  inputs=$({ for arch in "${arches[@]}"; do
    (cd "$prefix-$arch" && find . -type f -printf '%m %p\n' | sort && find . -type f | sort | xargs sha256sum)
  done; sha256sum <"$containerfile"; echo "$version"; } | sha256sum)
  if [ -f "$archive" ] && [ "$(cat "$archive.inputs" 2>/dev/null)" = "$inputs" ]; then
    echo "image: $archive (${arches[*]/#/linux/}; its inputs unchanged, kept)"
    return
  fi
  forget "$name"
  rm -f "$archive.inputs"
  for arch in "${arches[@]}"; do build_image "$name" "$containerfile" "$prefix-$arch" "$arch"; done
  push_index "$name"
  echo "$inputs" >"$archive.inputs"
}

# The agent: the portable bundle (bundle.sh; both architectures checked
# together by check_bundle.py), its copy step and a static busybox to run it.
agent_image() {
  local arch context checks=()
  for arch in "${arches[@]}"; do
    context=$out/context-$arch
    rm -rf "$context" && mkdir -p "$context"
    "$here/bundle.sh" "$(build_of "$arch")/agent" "$context/bundle" >/dev/null
    checks+=(--arch "$arch" "$context/bundle")
    cp "$(busybox_of "$arch")" "$context/busybox"
    install -m 0755 "$here/jvmsight-copy.sh" "$context/jvmsight-copy.sh"
  done
  /usr/bin/python3 "$here/check_bundle.py" "${checks[@]}"
  build_index jvmsight-agent "$here/Containerfile" "$out/context"
}

# The injector: the stripped binary and exactly the libraries it runs with
# (its NEEDED closure, plus OpenSSL 3, which it dlopen()s for HTTPS, and the
# dynamic linker it names), at Debian's multiarch paths, where the dynamic
# linker finds them with no configuration.
injector_image() {
  local arch context binary triplet ssl interp soname lib strip
  for arch in "${arches[@]}"; do
    context=$out/injector-context-$arch binary=$(build_of "$arch")/injector/jvmsight-injector
    triplet=$(triplet_of "$arch")
    strip=strip
    command -v "$triplet-strip" >/dev/null && strip=$triplet-strip
    rm -rf "$context" && mkdir -p "$context/rootfs/usr/bin" "$context/rootfs/usr/lib/$triplet"
    install -m 0755 "$binary" "$context/rootfs/usr/bin/jvmsight-injector"
    "$strip" "$context/rootfs/usr/bin/jvmsight-injector"
    ssl=$(readlink -f "/usr/lib/$triplet/libssl.so.3") || true
    [ -f "$ssl" ] || { echo "build.sh: no libssl.so.3 for $triplet (Debian: libssl3:$arch)" >&2; exit 1; }
    cp "$ssl" "$context/rootfs/usr/lib/$triplet/libssl.so.3"
    while read -r soname lib; do
      cp "$lib" "$context/rootfs/usr/lib/$triplet/$soname"
    done < <("$here/elf_closure.sh" "$triplet" "$binary" "$ssl")
    interp=$(readelf -lW "$binary" | sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
    mkdir -p "$context/rootfs$(dirname "$interp")"
    cp -L "$interp" "$context/rootfs$interp" 2>/dev/null || cp "/usr/lib/$triplet/$(basename "$interp")" "$context/rootfs$interp"
  done
  build_index jvmsight-injector "$here/Containerfile.injector" "$out/injector-context"
}

agent_image
injector_image
