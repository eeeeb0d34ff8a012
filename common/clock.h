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

// Adds the calling thread's CPU time over its scope to a total (a system
// call each end: not for event callbacks).
class CpuTimer {
 public:
  explicit CpuTimer(int64_t& total) : total_(total), start_(clock_ns(CLOCK_THREAD_CPUTIME_ID)) {}
  ~CpuTimer() { total_ += clock_ns(CLOCK_THREAD_CPUTIME_ID) - start_; }
  CpuTimer(const CpuTimer&) = delete;
  CpuTimer& operator=(const CpuTimer&) = delete;

 private:
  int64_t& total_;
  int64_t start_;
};

}  // namespace jvmsight
