// The duty cycle's choice of k from the contended-entry rate.
#include "collectors/contention/contention_sampler.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(ContentionSampler, TimesEverythingUpToTheBoundThenHalvesUntilUnderIt) {
  ContentionSampler s(10'000);
  EXPECT_EQ(s.next_shift(0, 9'000, 1.0), 0u);
  EXPECT_EQ(s.next_shift(0, 10'000, 1.0), 0u);
  EXPECT_EQ(s.next_shift(0, 10'001, 1.0), 1u);
  EXPECT_EQ(s.next_shift(0, 100'000, 1.0), 4u);  // on 1/16 of the time: 6,250 a second seen
  EXPECT_EQ(s.next_shift(0, 200'000, 2.0), 4u);  // a rate, not a count
  EXPECT_EQ(s.next_shift(0, uint64_t{1} << 40, 1.0), ContentionSampler::max_shift);
  EXPECT_EQ(ContentionSampler(0).next_shift(5, 1'000'000'000, 1.0), 0u) << "0: always on";
}

TEST(ContentionSampler, LowersOneStepAtATimeAndOnlyWellUnderTheBound) {
  ContentionSampler s(10'000);
  EXPECT_EQ(s.next_shift(4, 100'000, 1.0), 4u);
  EXPECT_EQ(s.next_shift(4, 60'000, 1.0), 4u) << "at shift 3 it would time 7,500 a second: too close";
  EXPECT_EQ(s.next_shift(4, 30'000, 1.0), 3u);
  EXPECT_EQ(s.next_shift(4, 0, 1.0), 3u);
  EXPECT_EQ(s.next_shift(1, 0, 1.0), 0u);
}

}  // namespace
}  // namespace jvmsight
