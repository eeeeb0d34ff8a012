#pragma once
// HotSpot's PerfData memory: the JVM's own instrumentation counters, what
// `jcmd <pid> PerfCounter.print` and jstat read. The JVM keeps it in a file
// under /tmp/hsperfdata_<user> that it maps, or (-XX:+PerfDisableSharedMem)
// in plain memory; -XX:-UsePerfData leaves it out. The agent reaches its
// own JVM's copy through jdk.internal.perf.Perf (sun.misc.Perf on JDK 8):
// attach(0) hands back a direct buffer over the JVM's memory, which the JVM
// never unmaps. JNI does not check module access, so no warning is printed.
// Parsed once: a counter is then a plain 8-byte read, as fresh as the JVM's
// last update.
#include <jni.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace jvmsight {

// A PerfData region: the prologue, then the entries.
struct PerfDataRegion {
  const uint8_t* base = nullptr;
  size_t size = 0;
};

// The address of the scalar long counter (or constant) named `name` inside
// the region, or null: no such entry, a region that is not PerfData in this
// machine's byte order, or an entry that does not fit. Every offset is
// checked against the region's size. Pure: reads the region only.
const int64_t* find_perf_long(PerfDataRegion region, std::string_view name);

// A counter's current value (the JVM updates it with plain 8-byte stores).
inline int64_t read_perf_long(const int64_t* counter) { return __atomic_load_n(counter, __ATOMIC_RELAXED); }

// This JVM's PerfData region, through Perf.attach on the agent thread;
// nullopt when the JVM keeps none (-XX:-UsePerfData) or refuses.
std::optional<PerfDataRegion> attach_own_perf_data(JNIEnv* jni);

}  // namespace jvmsight
