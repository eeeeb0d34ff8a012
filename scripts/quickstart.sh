#!/usr/bin/env bash
# One entry point for a fresh Debian 12 machine (as root):
#   scripts/quickstart.sh demo   install what is missing, build, run the demo workload with the agent
#   scripts/quickstart.sh test   install what is missing, build, run every test
#   scripts/quickstart.sh build  install what is missing and build
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-}
case "$MODE" in demo | test | build) ;; *) echo "usage: $0 demo|test|build" >&2; exit 2 ;; esac

# What the agent and the demo need (OpenSSL's headers: HTTPS is loaded at run
# time, only when asked for); the tests add gtest, Debian's prometheus
# (promtool, and the server for the alerting and dashboard tests),
# prometheus-alertmanager and python3-yaml (tests/e2e), clang-format and
# clang-tidy (the style checks: format, file and function size), clang and
# libclang-rt-14-dev (libFuzzer and the sanitizer runtimes: scripts/fuzz.sh,
# ctest -L fuzz), and for the deploy tests
# (tests/deploy) the image tools (buildah, umoci, a static busybox, patchelf)
# and runc, python3-jsonpatch (an RFC 6902 implementation applying the
# injector's patches in tests/deploy), debootstrap (the Debian 13 root for the
# extra test JDKs 8 and 21: scripts/install_jdks.sh) and jattach (attach on
# every JDK, 8 included), golang-go (`go tool pprof`, Go's own reader of the
# contention profiles, in tests/unit/exporters/pprof and tests/integration/contention). helm, kubectl and
# node packages come from npm (tests/deploy/install_tools.sh).
PACKAGES=(build-essential cmake openjdk-17-jdk-headless libssl-dev)
# jvmsight-injector (the admission webhook) parses AdmissionReviews with nlohmann::json.
PACKAGES+=(nlohmann-json3-dev)
# The OTLP exporter plugin (libjvmsight-otlp.so, built by default; the agent
# runs without it): protobuf, nghttp2 (gRPC's HTTP/2), OpenSSL, zlib, and npm
# to fetch the pinned .proto files once (cmake/otlp_protos.lock).
PACKAGES+=(libprotobuf-dev protobuf-compiler zlib1g-dev libnghttp2-dev)
# Debian's nodejs and npm, unless a node with npm is there already (a
# NodeSource nodejs carries npm and conflicts with Debian's npm package).
command -v npm >/dev/null || PACKAGES+=(nodejs npm)
# grpc++ and its protoc plugin: only the OTLP tests' receivers (tests/otlp).
TEST_PACKAGES=(libgrpc++-dev protobuf-compiler-grpc libgtest-dev libgmock-dev prometheus prometheus-alertmanager curl python3 python3-yaml clang-format clang-tidy
  clang libclang-rt-14-dev openssl
  buildah umoci busybox-static patchelf runc python3-jsonpatch
  debootstrap jattach golang-go)
# arm64 (docs/ARM64.md): the cross compilers, the :arm64 -dev packages the
# OTLP plugin links (Debian multiarch: dpkg --add-architecture arm64, below),
# and qemu-user plus debootstrap for the arm64 root the tests run the arm64
# agent in. busybox-static:arm64 is downloaded by deploy/image/build.sh, not
# installed.
ARM64_PACKAGES=(crossbuild-essential-arm64 qemu-user-static debootstrap
  libprotobuf-dev:arm64 libnghttp2-dev:arm64 zlib1g-dev:arm64 libssl-dev:arm64)
[ "$MODE" = demo ] || PACKAGES+=("${TEST_PACKAGES[@]}" "${ARM64_PACKAGES[@]}")

install_missing() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "==> installing: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  [[ " ${missing[*]}" == *:arm64* ]] && ! dpkg --print-foreign-architectures | grep -qx arm64 &&
    $sudo dpkg --add-architecture arm64
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  echo "==> building into build/"
  local tests=ON
  # The demo needs only the agent; an earlier test build keeps its tests.
  if [ "$MODE" = demo ]; then
    for p in libgtest-dev libgrpc++-dev; do
      dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || tests=OFF
    done
  fi
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJVMSIGHT_BUILD_TESTS=$tests >/dev/null
  cmake --build build -j"$(nproc)"
}

run_demo() {
  local port=${DEMO_PORT:-9404} classes=build/demo
  mkdir -p "$classes"
  /usr/lib/jvm/java-17-openjdk-amd64/bin/javac --release 17 -d "$classes" demo/JvmsightDemo.java
  echo "==> demo workload running with the agent"
  echo "    metrics: http://localhost:$port/metrics   (Ctrl-C to stop)"
  # Through the loader, as users load it: if the agent cannot be loaded, the JVM still runs.
  exec java "-agentpath:$ROOT/build/agent/libjvmsight-loader.so=port=$port" -cp "$classes" JvmsightDemo ${DEMO_SECONDS:-}
}

# The images first, as README says a new user builds them: from the fresh
# clone's empty build directory, building only what they carry (then the full
# build reuses those objects, so it costs no extra compiling). A failure is
# reported by ctest's deploy.image_build, which runs the same script and
# otherwise keeps these archives (their inputs unchanged).
build_images() {
  echo "==> building the images from the build directory as it is (build/image-build.log)"
  mkdir -p build
  local start=$SECONDS
  if deploy/image/build.sh >build/image-build.log 2>&1; then
    echo "    done in $((SECONDS - start)) s: $(grep -c '^image: ' build/image-build.log) archives"
  else
    echo "==> the image build failed (build/image-build.log; ctest's deploy.image_build repeats it):" >&2
    tail -5 build/image-build.log >&2
  fi
}

run_tests() {
  echo "==> running every test (unit + integration on each JDK under /usr/lib/jvm and build/jdk-roots)"
  build/tests/integration_tests --gtest_filter=-* | grep '^\[jvmsight\]'  # which JDKs, which are missing
  # Serially: the GC and lock tests time real JVM events, and two JVMs per
  # core make the timing noisy on small machines. Then the fuzz targets,
  # one per core: each fuzzes a fixed 15 s on one core wherever it runs.
  local status=0
  ctest --test-dir build --output-on-failure --timeout 600 -LE '^fuzz$' || status=$?
  ctest --test-dir build --output-on-failure --timeout 600 -L '^fuzz$' -j"$(nproc)" || status=$?
  return "$status"
}

# The extra test JDKs (8, 11, 21) download while the build runs; the tests
# wait for them. JVMSIGHT_EXTRA_JDKS=0 leaves them out.
start_jdk_install() {
  [ "$MODE" = test ] || return 0
  [ "${JVMSIGHT_EXTRA_JDKS:-1}" = 0 ] && return 0
  mkdir -p build
  bash scripts/install_jdks.sh build/jdk-roots >build/install_jdks.log 2>&1 &
  JDK_INSTALL_PID=$!
}
wait_jdk_install() {
  [ -n "${JDK_INSTALL_PID:-}" ] || return 0
  if ! wait "$JDK_INSTALL_PID"; then
    echo "==> installing the extra test JDKs failed (build/install_jdks.log; JVMSIGHT_EXTRA_JDKS=0 skips them):" >&2
    tail -5 build/install_jdks.log >&2
    return 1
  fi
  tail -1 build/install_jdks.log
}

# The arm64 root (debootstrap, minutes) is made in the background while the
# native build runs; ctest's arm64.root waits for it (tests/arm64/root.sh
# locks). Root only, like the arm64 tests themselves.
start_arm64_root() {
  [ "$(id -u)" -eq 0 ] || return 0
  mkdir -p build
  echo "==> making the arm64 root in the background (build/arm64-root.bg.log)"
  tests/arm64/root.sh make build/arm64-root >build/arm64-root.bg.log 2>&1 &
  trap 'wait' EXIT  # never leave it running
}

install_missing
[ "$MODE" = test ] && start_arm64_root
start_jdk_install
[ "$MODE" = test ] && build_images
build
case "$MODE" in
  demo) run_demo ;;
  test) wait_jdk_install && run_tests ;;
esac
