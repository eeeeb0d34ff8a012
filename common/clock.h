#pragma once
// Reading POSIX clocks in nanoseconds. CLOCK_MONOTONIC and CLOCK_REALTIME
// are vDSO reads (no system call, no allocation, no lock): safe in JVM TI
// event callbacks.
#include <time.h>

#include <cstdint>

namespace jvmsight {

inline int64_t clock_ns(clockid_t clock) noexcept {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// CLOCK_MONOTONIC as the unsigned count the monitor event stamps keep.
inline uint64_t monotonic_ns() noexcept { return static_cast<uint64_t>(clock_ns(CLOCK_MONOTONIC)); }

}  // namespace jvmsight
