#pragma once
// JDK 21 only: there, any JVM TI event that can be enabled per thread (the
// monitor events, Breakpoint), once enabled, makes the JVM create and free
// its per-thread state for every virtual thread that starts (JDK-8308614,
// fixed in 22): skynet ran at 0.61x of the floor with the pinning
// breakpoints and the monitor events on, 0.82-1.16x with both off
// (docs/BENCHMARKS.md). So while virtual threads start faster than
// virtual_thread_churn a second, ContentionDutyCycle turns all of those
// events on for one slice in 2^k, k picked from the start rate as
// ContentionSampler picks it from contended entries. The rate is the JVM's
// own count (VirtualThreadStarts), read on the agent thread: nothing per
// thread. Agent thread only.
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include "collectors/contention/contention_sampler.h"

namespace jvmsight {

class VirtualThreadChurn {
 public:
  using Clock = std::chrono::steady_clock;
  // started: virtual threads started so far, never going back (nullopt:
  // unknown, then no k).
  VirtualThreadChurn(uint32_t max_starts_per_second, std::function<std::optional<uint64_t>()> started)
      : sampler_(max_starts_per_second), started_(std::move(started)) {}

  // At each of the duty cycle's rate checks and cycle ends: the lowest k
  // the starts since the last call need (the first call starts the clock).
  uint32_t shift(Clock::time_point now);

 private:
  ContentionSampler sampler_;
  std::function<std::optional<uint64_t>()> started_;
  uint32_t shift_ = 0;
  uint64_t last_started_ = 0;
  Clock::time_point last_{};
  bool told_ = false;  // the one info line, at the first cycling
};

}  // namespace jvmsight
