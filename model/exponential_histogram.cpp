#include "model/exponential_histogram.h"

#include <algorithm>
#include <cmath>

namespace jvmsight {
namespace {

// floor(v / 2^shift), also for negative v.
int32_t floor_shift(int32_t v, int32_t shift) { return v >= 0 ? v >> shift : -((-(v + 1)) >> shift) - 1; }

}  // namespace

int32_t exponential_index(double value, int32_t scale) {
  int exp = 0;
  const double fraction = std::frexp(value, &exp);  // value = fraction * 2^exp, fraction in [0.5, 1)
  // An exact power of two, 2^(exp - 1), is the upper bound of its bucket
  // (buckets include their upper bound): one index below.
  const bool power_of_two = fraction == 0.5;
  if (scale <= 0) return floor_shift(power_of_two ? exp - 2 : exp - 1, -scale);
  const int32_t per_octave = int32_t{1} << scale;
  if (power_of_two) return (exp - 1) * per_octave - 1;
  // value = m * 2^(exp - 1), m in (1, 2): the octave exactly from the
  // exponent, the bucket within it from log2(m) * 2^scale (floor: m is no
  // power of two). A log of the whole value loses the low bits near the
  // largest doubles (DBL_MAX landed one bucket too high at every scale > 0).
  const double within = std::floor(std::log2(fraction * 2) * per_octave);
  return (exp - 1) * per_octave + std::min(static_cast<int32_t>(within), per_octave - 1);
}

ExponentialBuckets downscaled(const ExponentialBuckets& b, int32_t change) {
  if (change <= 0 || b.counts.empty()) {
    ExponentialBuckets out = b;
    out.scale -= std::max(change, 0);
    return out;
  }
  ExponentialBuckets out{b.scale - change, b.zero_count, floor_shift(b.offset, change), {}};
  const int32_t last = floor_shift(b.offset + static_cast<int32_t>(b.counts.size()) - 1, change);
  out.counts.assign(static_cast<size_t>(last - out.offset + 1), 0);
  for (size_t i = 0; i < b.counts.size(); ++i)
    out.counts[static_cast<size_t>(floor_shift(b.offset + static_cast<int32_t>(i), change) - out.offset)] +=
        b.counts[i];
  return out;
}

bool subtract(const ExponentialBuckets& now, const ExponentialBuckets& before, ExponentialBuckets& out) {
  if (before.scale < now.scale || before.zero_count > now.zero_count) return false;
  const ExponentialBuckets prev = downscaled(before, before.scale - now.scale);
  out = now;
  out.zero_count -= prev.zero_count;
  for (size_t i = 0; i < prev.counts.size(); ++i) {
    if (prev.counts[i] == 0) continue;
    const int64_t at = int64_t{prev.offset} + static_cast<int64_t>(i) - now.offset;
    if (at < 0 || at >= static_cast<int64_t>(out.counts.size()) || out.counts[static_cast<size_t>(at)] < prev.counts[i])
      return false;
    out.counts[static_cast<size_t>(at)] -= prev.counts[i];
  }
  // Only the buckets between the first and last with a count are sent.
  auto first = std::find_if(out.counts.begin(), out.counts.end(), [](uint64_t c) { return c != 0; });
  out.offset += static_cast<int32_t>(first - out.counts.begin());
  out.counts.erase(out.counts.begin(), first);
  while (!out.counts.empty() && out.counts.back() == 0) out.counts.pop_back();
  if (out.counts.empty()) out.offset = 0;
  return true;
}

void ExponentialHistogram::record(double value) {
  if (!std::isfinite(value)) return;
  if (value <= 0) {
    ++zero_count_;
    return;
  }
  int32_t index = exponential_index(value, scale_);
  if (empty_) {
    empty_ = false;
    low_ = high_ = index;
  }
  const int32_t low = std::min(low_, index), high = std::max(high_, index);
  int32_t change = 0;
  while (floor_shift(high, change) - floor_shift(low, change) + 1 > max_size) ++change;
  if (change > 0) {
    downscale(change);
    index = floor_shift(index, change);  // the same bucket exponential_index gives at the new scale
  }
  if (index < low_) {
    const auto shift = static_cast<size_t>(low_ - index);
    std::copy_backward(counts_.begin(), counts_.begin() + (high_ - low_ + 1),
                       counts_.begin() + (high_ - low_ + 1) + shift);
    std::fill(counts_.begin(), counts_.begin() + shift, 0);
    low_ = index;
  }
  high_ = std::max(high_, index);
  ++counts_[static_cast<size_t>(index - low_)];
}

void ExponentialHistogram::downscale(int32_t change) {
  const int32_t new_low = floor_shift(low_, change);
  // Bucket i moves to j <= i: ascending, nothing is overwritten unread.
  for (int32_t i = 0; i <= high_ - low_; ++i) {
    const auto j = static_cast<size_t>(floor_shift(low_ + i, change) - new_low);
    const uint64_t c = counts_[static_cast<size_t>(i)];
    counts_[static_cast<size_t>(i)] = 0;
    counts_[j] += c;
  }
  low_ = new_low;
  high_ = floor_shift(high_, change);
  scale_ -= change;
}

ExponentialBuckets ExponentialHistogram::value() const {
  ExponentialBuckets b{scale_, zero_count_, empty_ ? 0 : low_, {}};
  if (!empty_) b.counts.assign(counts_.begin(), counts_.begin() + (high_ - low_ + 1));
  return b;
}

}  // namespace jvmsight
