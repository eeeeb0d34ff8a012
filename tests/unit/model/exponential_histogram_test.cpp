// The base-2 exponential aggregation against the definitions of the
// OpenTelemetry metrics data model and SDK specification: bucket i at scale s
// holds (2^(i * 2^-s), 2^((i + 1) * 2^-s)] (upper bound included), at most 160
// positive buckets from scale 20 down, the scale lowered just enough for the
// range to fit. Expectations come from those definitions, computed another
// way (exact integer arithmetic, long-double powers), not from the code.
#include "model/exponential_histogram.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <vector>

namespace jvmsight {
namespace {

// ceil(a / b) for b > 0, any sign of a.
int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// The bucket's bounds, from the definition, in long double.
long double lower_bound_of(int32_t index, int32_t scale) { return std::exp2l(std::ldexp((long double)index, -scale)); }

// Whether `value` lies in bucket `index` at `scale`; values within a relative
// 1e-12 of a bound may fall on either side (a log's rounding).
bool in_bucket(double value, int32_t index, int32_t scale) {
  const long double lo = lower_bound_of(index, scale), hi = lower_bound_of(index + 1, scale);
  const long double v = value, slack = v * 1e-12L;
  return v > lo - slack && v <= hi + slack;
}

TEST(ExponentialIndex, PowersOfTwoAreTheUpperBoundOfTheirBucket) {
  for (int32_t scale = -10; scale <= 20; ++scale) {
    for (int k : {-1022, -100, -20, -3, -1, 0, 1, 2, 3, 7, 20, 100, 1023}) {
      // 2^k is the upper bound of bucket i: (i + 1) * 2^-scale == k, or for
      // negative scales the bucket whose range (i * 2^-s, (i + 1) * 2^-s] holds k.
      const int64_t expected =
          scale >= 0 ? int64_t{k} * (int64_t{1} << scale) - 1 : ceil_div(k, int64_t{1} << -scale) - 1;
      EXPECT_EQ(exponential_index(std::ldexp(1.0, k), scale), expected) << "2^" << k << " at scale " << scale;
    }
  }
}

TEST(ExponentialIndex, ExtremeNormalValuesAsTheSpecificationMapsThem) {
  // The largest double is in bucket 1023 at scale 0 and the last bucket
  // below 2^1024 at every positive scale; the smallest normal, 2^-1022, is
  // a power of two: bucket -1023 at scale 0.
  EXPECT_EQ(exponential_index(DBL_MAX, 0), 1023);
  EXPECT_EQ(exponential_index(DBL_MAX, 20), (1024 << 20) - 1);
  EXPECT_EQ(exponential_index(DBL_MAX, 1), 2047);
  EXPECT_EQ(exponential_index(DBL_MIN, 0), -1023);
  EXPECT_EQ(exponential_index(DBL_MIN, -10), -1);
}

TEST(ExponentialIndex, EveryValueLiesWithinItsBucketsBounds) {
  uint64_t seed = 88172645463325252ull;  // xorshift: deterministic spread of mantissas and exponents
  for (int n = 0; n < 20000; ++n) {
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    const double value = std::ldexp(0.5 + static_cast<double>(seed >> 11) / 18014398509481984.0,
                                    static_cast<int>(seed % 80) - 40);  // about 1e-12 .. 1e12
    for (int32_t scale : {-3, -1, 0, 1, 3, 8, 14, 20}) {
      const int32_t index = exponential_index(value, scale);
      ASSERT_TRUE(in_bucket(value, index, scale)) << value << " in " << index << " at scale " << scale;
    }
  }
  // Just above a power of two is the next bucket; the power itself is not.
  EXPECT_EQ(exponential_index(std::nextafter(1.0, 2.0), 0), 0);
  EXPECT_EQ(exponential_index(std::nextafter(1.0, 0.0), 0), -1);
  EXPECT_EQ(exponential_index(std::sqrt(2.0) * 1.0000001, 1), 1);  // past sqrt(2), bucket (sqrt2, 2] at scale 1
  EXPECT_EQ(exponential_index(1.4142, 1), 0);                      // below sqrt(2): (1, sqrt2]
}

// What a histogram holds, bucket by bucket, as (index, count).
uint64_t total(const ExponentialBuckets& b) {
  uint64_t n = b.zero_count;
  for (uint64_t c : b.counts) n += c;
  return n;
}

TEST(ExponentialHistogram, StartsAtScale20AndLowersItJustEnoughForTheRange) {
  ExponentialHistogram h;
  h.record(1.5);
  EXPECT_EQ(h.value().scale, 20) << "one value fits at the finest scale";
  h.record(1.0);
  h.record(2.0);
  // 1 and 2 are the upper bounds of buckets -1 and 2^s - 1: 2^s + 1 buckets,
  // at most 160, so s = 7 (129 buckets); 8 would need 257.
  const ExponentialBuckets b = h.value();
  EXPECT_EQ(b.scale, 7);
  EXPECT_EQ(b.offset, -1);
  ASSERT_EQ(b.counts.size(), 129u);
  EXPECT_EQ(b.counts.front(), 1u);
  EXPECT_EQ(b.counts.back(), 1u);
  EXPECT_EQ(total(b), 3u);
  EXPECT_EQ(b.counts[static_cast<size_t>(exponential_index(1.5, 7) + 1)], 1u);
}

TEST(ExponentialHistogram, PauseLikeValuesKeepEveryValueInItsBucketWithin160) {
  ExponentialHistogram h;
  std::vector<double> values;
  uint64_t seed = 2463534242ull;
  for (int n = 0; n < 5000; ++n) {
    seed ^= seed << 13, seed ^= seed >> 17, seed ^= seed << 5;
    // 8 µs .. 2 s, spread over the decades as GC pauses are
    const double v = 8e-6 * std::pow(10.0, static_cast<double>(seed % 100000) / 100000.0 * 5.4);
    values.push_back(v);
    h.record(v);
  }
  h.record(0);
  const ExponentialBuckets b = h.value();
  EXPECT_LE(b.counts.size(), 160u);
  EXPECT_EQ(b.zero_count, 1u);
  EXPECT_EQ(total(b), values.size() + 1);
  // 18 octaves fit 160 buckets at scale 3 (8 a power of two: about 9% wide), not at 4.
  EXPECT_EQ(b.scale, 3);
  std::vector<uint64_t> expected(b.counts.size(), 0);
  for (double v : values) {
    int64_t at = -1;
    for (size_t i = 0; i < b.counts.size(); ++i)
      if (in_bucket(v, b.offset + static_cast<int32_t>(i), b.scale)) at = static_cast<int64_t>(i);
    ASSERT_GE(at, 0) << v << " lies in no bucket";
    ++expected[static_cast<size_t>(at)];
  }
  EXPECT_EQ(b.counts, expected);
}

TEST(ExponentialHistogram, ValuesBelowTheRangeShiftItDown) {
  ExponentialHistogram h;
  for (double v : {0.5, 0.25, 0.125, 0.3})  // each new low value extends the range downwards
    h.record(v);
  const ExponentialBuckets b = h.value();
  EXPECT_EQ(total(b), 4u);
  for (double v : {0.5, 0.25, 0.125, 0.3})
    EXPECT_GT(b.counts[static_cast<size_t>(exponential_index(v, b.scale) - b.offset)], 0u) << v;
}

TEST(ExponentialBuckets, DownscaleMergesNeighbours) {
  ExponentialBuckets b{2, 4, -3, {1, 2, 3, 4, 5}};  // indices -3..1
  ExponentialBuckets d = downscaled(b, 1);          // -3->-2, -2->-1, -1->-1, 0->0, 1->0
  EXPECT_EQ(d.scale, 1);
  EXPECT_EQ(d.zero_count, 4u);
  EXPECT_EQ(d.offset, -2);
  EXPECT_EQ(d.counts, (std::vector<uint64_t>{1, 5, 9}));
  EXPECT_EQ(downscaled(b, 3).counts, (std::vector<uint64_t>{6, 9}));  // -3..-1 -> -1, 0..1 -> 0
  EXPECT_EQ(downscaled(b, 3).offset, -1);
}

// A delta is what the later cumulative state holds beyond the earlier one:
// the same as aggregating only the later values, at the later scale.
TEST(ExponentialBuckets, SubtractGivesWhatArrivedSinceAtTheNewScale) {
  ExponentialHistogram all, later;
  for (double v : {0.001, 0.002, 0.0015, 0.0}) all.record(v);
  const ExponentialBuckets before = all.value();
  for (double v : {0.00003, 0.4, 0.0016, 0.0}) {
    all.record(v);
    later.record(v);
  }
  const ExponentialBuckets now = all.value();
  ASSERT_LT(now.scale, before.scale) << "the test needs a scale change in between";
  ExponentialBuckets delta;
  ASSERT_TRUE(subtract(now, before, delta));
  ExponentialBuckets expected = downscaled(later.value(), later.value().scale - now.scale);
  while (!expected.counts.empty() && expected.counts.back() == 0) expected.counts.pop_back();
  EXPECT_EQ(delta.scale, now.scale);
  EXPECT_EQ(delta.zero_count, 1u);
  EXPECT_EQ(delta.offset, expected.offset);
  EXPECT_EQ(delta.counts, expected.counts);
  // A state that is not an earlier one of `now` (finer than now, or with
  // more in a bucket) cannot be subtracted: the series restarted.
  EXPECT_FALSE(subtract(before, now, delta));
  ExponentialBuckets more = now;
  more.counts.front() += 1;
  EXPECT_FALSE(subtract(now, more, delta));
}

}  // namespace
}  // namespace jvmsight
