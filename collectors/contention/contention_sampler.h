#pragma once
// How much of a rate to thin, as a power of two. Each contention event
// costs little at normal rates, but at 100,000 contended entries a second
// HotSpot's own event posting alone costs a few percent of throughput
// (docs/BENCHMARKS.md). Above a bound, ContentionDutyCycle turns the events
// on for one slice of time in 2^k, and the mutex profile walks the stack at
// one event in 2^k (MonitorStackRecorder); this picks k from the rate.
#include <cstdint>

namespace jvmsight {

class ContentionSampler {
 public:
  // The events are on at least one slice in 2^max_shift.
  static constexpr uint32_t max_shift = 5;

  // max_timed_per_second: 0 = events always on, whatever the rate.
  // highest: the largest k it picks.
  explicit ContentionSampler(uint32_t max_timed_per_second, uint32_t highest = max_shift)
      : max_(max_timed_per_second), highest_(highest) {}

  // The next shift k, given the contended entries seen over `seconds`
  // while the shift was `current` (all of them: the JVM's own count while
  // duty cycling). Raises k at once to what the rate needs; lowers it one
  // step at a time, and only when the entries seen would stay under half
  // the bound, so a rate near it does not flap.
  uint32_t next_shift(uint32_t current, uint64_t entries, double seconds) const;

 private:
  uint32_t max_;
  uint32_t highest_;
};

}  // namespace jvmsight
