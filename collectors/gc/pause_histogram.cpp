#include "collectors/gc/pause_histogram.h"

#include <algorithm>

namespace jvmsight {

void PauseHistogram::observe(double seconds) {
  // Prometheus buckets are "less than or equal": a value on a bound belongs to it.
  auto it = std::lower_bound(upper_bounds.begin(), upper_bounds.end(), seconds);
  ++buckets_[static_cast<size_t>(it - upper_bounds.begin())];
  exponential_.record(seconds);
  ++count_;
  sum_ += seconds;
}

HistogramValue PauseHistogram::value() const {
  HistogramValue v;
  v.upper_bounds.assign(upper_bounds.begin(), upper_bounds.end());
  v.bucket_counts.assign(buckets_.begin(), buckets_.end());
  v.count = count_;
  v.sum = sum_;
  v.exponential = exponential_.value();
  return v;
}

}  // namespace jvmsight
