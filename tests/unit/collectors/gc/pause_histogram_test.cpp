#include "collectors/gc/pause_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace jvmsight {
namespace {

TEST(PauseHistogram, ContainsTheOpenTelemetryBucketsAndSubMillisecondOnes) {
  const auto& b = PauseHistogram::upper_bounds;
  for (double otel : {0.01, 0.1, 1.0, 10.0}) EXPECT_NE(std::find(b.begin(), b.end(), otel), b.end()) << otel;
  EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
  EXPECT_GE(std::count_if(b.begin(), b.end(), [](double x) { return x < 0.001; }), 5)
      << "ZGC/Shenandoah pauses are 5-100 µs: they need several buckets below 1 ms";
}

TEST(PauseHistogram, ValueOnABoundBelongsToThatBucket) {
  PauseHistogram h;
  h.observe(0.001);  // exactly on the 1 ms bound
  h.observe(0.0010001);
  h.observe(0.000003);  // below the first bound
  h.observe(42);        // above the last: +Inf
  HistogramValue v = h.value();
  ASSERT_EQ(v.bucket_counts.size(), v.upper_bounds.size() + 1);
  auto index = [&](double bound) {
    return static_cast<size_t>(std::find(v.upper_bounds.begin(), v.upper_bounds.end(), bound) - v.upper_bounds.begin());
  };
  EXPECT_EQ(v.bucket_counts[index(0.001)], 1u);
  EXPECT_EQ(v.bucket_counts[index(0.0025)], 1u);
  EXPECT_EQ(v.bucket_counts[0], 1u);
  EXPECT_EQ(v.bucket_counts.back(), 1u);
  EXPECT_EQ(v.count, 4u);
  EXPECT_DOUBLE_EQ(v.sum, 0.001 + 0.0010001 + 0.000003 + 42);
}

TEST(PauseHistogram, EmptyIsAllZero) {
  HistogramValue v = PauseHistogram().value();
  EXPECT_EQ(v.count, 0u);
  EXPECT_EQ(v.sum, 0);
  for (auto c : v.bucket_counts) EXPECT_EQ(c, 0u);
}

// One observe() fills both: the exponential buckets hold the same pauses,
// sub-millisecond ones apart from each other (the explicit buckets put 12 µs
// and 18 µs together, so do the advised OTLP ones everything below 10 ms).
TEST(PauseHistogram, ExponentialBucketsHoldTheSamePausesFinerThanTheExplicitOnes) {
  PauseHistogram h;
  for (double s : {0.000012, 0.000018, 0.0004, 0.0031, 0.0, 1.5}) h.observe(s);
  HistogramValue v = h.value();
  ASSERT_TRUE(v.exponential.has_value());
  const ExponentialBuckets& e = *v.exponential;
  uint64_t total = e.zero_count;
  for (auto c : e.counts) total += c;
  EXPECT_EQ(total, v.count);
  EXPECT_EQ(e.zero_count, 1u);
  EXPECT_LE(e.counts.size(), 160u);
  EXPECT_NE(exponential_index(0.000012, e.scale), exponential_index(0.000018, e.scale));
  EXPECT_EQ(v.bucket_counts[1], 2u) << "12 and 18 µs share the explicit bucket (10, 25] µs";
}

}  // namespace
}  // namespace jvmsight
