#pragma once
// How many contended entries the monitor callbacks time. Timing every one
// costs a workload little at normal rates, but at 100,000 contended entries a
// second the extra work in the callbacks changes how lock convoys form and
// costs several percent of throughput (docs/BENCHMARKS.md). Above a bound,
// one entry in 2^k is timed and counts for 2^k: the totals stay estimates
// of the real counts, and the cost stays near HotSpot's own event posting.
#include <cstdint>

namespace jvmsight {

class ContentionSampler {
 public:
  // max_timed_per_second: 0 = time every entry, whatever the rate.
  explicit ContentionSampler(uint32_t max_timed_per_second) : max_(max_timed_per_second) {}

  // The next sampling shift k, given the contended entries (weighted) seen
  // over `seconds` while the shift was `current`. Raises k at once to what
  // the rate needs; lowers it one step at a time, and only when the timed
  // rate would stay under half the bound, so a rate near it does not flap.
  uint32_t next_shift(uint32_t current, uint64_t entries, double seconds) const;

 private:
  uint32_t max_;
};

}  // namespace jvmsight
