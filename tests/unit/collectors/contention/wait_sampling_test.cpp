#include "collectors/contention/wait_sampling.h"

#include <gtest/gtest.h>

#include <random>

namespace jvmsight {
namespace {

// The estimate of many waits of one length, drawn as the callback draws.
struct Estimate {
  double waits = 0, delay_ns = 0;
  int kept = 0;
};
Estimate estimate(uint64_t wait_ns, uint64_t rate_ns, int n) {
  Estimate e;
  uint64_t now = 123'456'789;
  for (int i = 0; i < n; ++i) {
    now += 997 + (i % 13);  // the callback's clock moves on
    KeptWait k = sample_wait(wait_ns, rate_ns, wait_random(now, 0x51ab));
    if (!k.kept) continue;
    ++e.kept;
    e.waits += static_cast<double>(k.weight) / StackTable::weight_one;
    e.delay_ns += static_cast<double>(k.delay_ns);
  }
  return e;
}

TEST(WaitSampling, LongWaitsAreAllKeptAtTheirLength) {
  Estimate e = estimate(5'000'000, 1'000'000, 1000);
  EXPECT_EQ(e.kept, 1000);
  EXPECT_DOUBLE_EQ(e.waits, 1000);
  EXPECT_DOUBLE_EQ(e.delay_ns, 5e9);
}

TEST(WaitSampling, ShortWaitsAreKeptInProportionAndScaledBack) {
  // 10 us waits at a 1 ms rate: about one in 100 kept, each standing for 100.
  constexpr int n = 400'000;
  Estimate e = estimate(10'000, 1'000'000, n);
  EXPECT_NEAR(e.kept, n / 100, n / 100 * 0.1);
  EXPECT_NEAR(e.waits, n, n * 0.1);
  EXPECT_NEAR(e.delay_ns, n * 10'000.0, n * 10'000.0 * 0.1);
}

TEST(WaitSampling, RateZeroKeepsEveryWaitAsItIs) {
  Estimate e = estimate(42, 0, 100);
  EXPECT_EQ(e.kept, 100);
  EXPECT_DOUBLE_EQ(e.delay_ns, 4200);
}

TEST(WaitSampling, AZeroWaitIsNeverKeptBelowTheRate) {
  for (uint64_t r = 0; r < 1000; ++r) EXPECT_FALSE(sample_wait(0, 1000, r).kept);
}

}  // namespace
}  // namespace jvmsight
