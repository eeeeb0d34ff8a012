# Cross build for 64-bit ARM (Graviton, Ampere) on a Debian x86-64 machine:
#   scripts/cross_build.sh arm64
# which configures with -DCMAKE_TOOLCHAIN_FILE=<this file>. Needs Debian's
# crossbuild-essential-arm64 (the aarch64-linux-gnu-gcc/g++ cross compilers)
# and, for the OTLP plugin, the :arm64 -dev packages of protobuf, nghttp2,
# zlib and OpenSSL (dpkg --add-architecture arm64), which Debian installs
# beside the amd64 ones under /usr/lib/aarch64-linux-gnu (multiarch).
#
# Programs that run during the build come from the host: protoc (the same
# protobuf version as the :arm64 headers and libraries, which multiarch
# requires anyway) and javac (the lock scan's class file is the same bytes on
# every architecture). jvmti.h and jni_md.h are the same on both 64-bit Linux
# targets, so the host JDK's headers serve.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_STRIP aarch64-linux-gnu-strip)

# Debian's multiarch layout: the arm64 libraries and their .pc files live
# under /usr/lib/aarch64-linux-gnu of the host itself (found through
# CMAKE_LIBRARY_ARCHITECTURE), headers in /usr/include; no sysroot.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
