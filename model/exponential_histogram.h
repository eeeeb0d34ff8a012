#pragma once
// OpenTelemetry's base-2 exponential histogram aggregation
// (base2_exponential_bucket_histogram in the metrics SDK specification): at
// scale s the bucket of index i holds (2^(i * 2^-s), 2^((i + 1) * 2^-s)], so
// one scale step down merges each pair of neighbours. It starts at the
// finest scale, 20, and keeps at most 160 positive buckets: a value outside
// the range lowers the scale just enough for the whole range to fit. Fixed
// storage: recording never allocates.
#include <array>
#include <cstdint>

#include "model/telemetry.h"

namespace jvmsight {

// The bucket index of a positive finite value at `scale` (-10..20).
int32_t exponential_index(double value, int32_t scale);

// `b` at `change` scales lower (each index i becomes floor(i / 2^change)).
ExponentialBuckets downscaled(const ExponentialBuckets& b, int32_t change);

// The observations in `now` that are not in `before` (both cumulative, of
// one series): `before` is brought to now's scale first. False when `before`
// is no earlier state of `now` (a finer scale, or a bucket that shrank: the
// series restarted).
bool subtract(const ExponentialBuckets& now, const ExponentialBuckets& before, ExponentialBuckets& out);

class ExponentialHistogram {
 public:
  static constexpr int32_t max_scale = 20;
  static constexpr int32_t max_size = 160;

  // Values of 0 (and below: a duration never is) go to the zero bucket.
  void record(double value);
  ExponentialBuckets value() const;
  int32_t scale() const { return scale_; }

 private:
  void downscale(int32_t change);

  int32_t scale_ = max_scale;
  uint64_t zero_count_ = 0;
  bool empty_ = true;                        // no positive value yet
  int32_t low_ = 0;                          // the index of counts_[0]
  int32_t high_ = 0;                         // the highest index with a count
  std::array<uint64_t, max_size> counts_{};  // counts_[i]: index low_ + i; zero past high_
};

}  // namespace jvmsight
