#include "collectors/contention/contention_sampler.h"

namespace jvmsight {

uint32_t ContentionSampler::next_shift(uint32_t current, uint64_t entries, double seconds) const {
  if (max_ == 0 || seconds <= 0) return 0;
  const double rate = static_cast<double>(entries) / seconds;
  auto seen = [&](uint32_t shift) { return rate / static_cast<double>(uint64_t{1} << shift); };
  uint32_t needed = 0;
  while (needed < highest_ && seen(needed) > max_) ++needed;
  if (needed >= current) return needed;
  return seen(current - 1) <= 0.5 * max_ ? current - 1 : current;
}

}  // namespace jvmsight
