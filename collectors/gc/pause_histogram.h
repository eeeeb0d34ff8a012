#pragma once
// Fixed-bucket histogram of pause durations in seconds. Fine enough below a
// millisecond (ZGC and Shenandoah pauses are tens of microseconds) and
// containing the OpenTelemetry jvm.gc.duration buckets 0.01, 0.1, 1, 10 s, so
// either ecosystem can use it without re-bucketing. Each pause is also kept
// in base-2 exponential buckets (at most 160, fixed storage), which OTLP
// sends when asked for exponential histograms: both from the one observe()
// of a pause. Agent thread only (the drain of the pause ring), never on the
// GC event callbacks.
#include <array>
#include <cstdint>

#include "model/exponential_histogram.h"
#include "model/telemetry.h"

namespace jvmsight {

class PauseHistogram {
 public:
  static constexpr std::array<double, 18> upper_bounds{0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
                                                       0.001,   0.0025,   0.005,   0.01,   0.025,   0.05,
                                                       0.1,     0.25,     0.5,     1,      2.5,     10};

  void observe(double seconds);
  HistogramValue value() const;
  uint64_t count() const { return count_; }
  double sum() const { return sum_; }

 private:
  std::array<uint64_t, upper_bounds.size() + 1> buckets_{};  // last: +Inf
  ExponentialHistogram exponential_;
  uint64_t count_ = 0;
  double sum_ = 0;
};

}  // namespace jvmsight
