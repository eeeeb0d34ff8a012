// The block profile's estimator against waits whose truth the test knows:
// waits longer than the interval count once each with their time in full,
// a new queue node is a new wait, stacks within their budget lose no time,
// and short waits at random phases come out unbiased (a simulation whose
// waits are drawn here, compared with their sum and count).
#include "collectors/contention/park_episodes.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <vector>

namespace jvmsight {
namespace {

constexpr uint64_t ms = 1'000'000;

struct Totals {
  double waits = 0;
  uint64_t delay_ns = 0;
};

// What each stack got, in waits and nanoseconds.
void add(std::map<uint32_t, Totals>& to, const std::vector<ParkCharge>& charges) {
  for (const ParkCharge& c : charges) {
    to[c.stack].waits += static_cast<double>(c.weight) / ParkEpisodes::weight_one;
    to[c.stack].delay_ns += c.delay_ns;
  }
}

// One round: every wanted stack taken, thread t's as stack_of(t).
template <class StackOf>
void round(ParkEpisodes& e, const std::vector<ParkObservation>& seen, uint64_t interval, size_t budget,
           std::map<uint32_t, Totals>& got, StackOf stack_of) {
  std::vector<uint32_t> taken;
  for (size_t i : e.observe(seen, interval, budget)) taken.push_back(stack_of(seen[i]));
  add(got, e.charge(taken));
}

TEST(ParkEpisodes, AWaitLongerThanTheIntervalCountsOnceWithItsWholeTime) {
  ParkEpisodes e;
  std::map<uint32_t, Totals> got;
  for (int r = 0; r < 12; ++r) round(e, {{7, 111, 9}}, 10 * ms, 4, got, [](const ParkObservation&) { return 5u; });
  EXPECT_DOUBLE_EQ(got[5].waits, 1);
  EXPECT_EQ(got[5].delay_ns, 120 * ms);
}

TEST(ParkEpisodes, AnotherQueueNodeIsAnotherWait) {
  ParkEpisodes e;
  std::map<uint32_t, Totals> got;
  auto stack = [](const ParkObservation&) { return 5u; };
  for (int32_t token : {111, 111, 222, 222, 0, 333}) round(e, {{7, token, 9}}, 10 * ms, 4, got, stack);
  // 0: the node was not found this round, taken for the same wait.
  EXPECT_DOUBLE_EQ(got[5].waits, 3);
  EXPECT_EQ(got[5].delay_ns, 60 * ms);
}

TEST(ParkEpisodes, StacksBeyondTheBudgetWaitTheirTurnAndLoseNoTime) {
  ParkEpisodes e;
  std::map<uint32_t, Totals> got;
  std::vector<ParkObservation> seen;
  // Each at a lock of its own: no stack can be drawn from another wait's.
  for (int64_t t = 1; t <= 10; ++t) seen.push_back({t, static_cast<int32_t>(100 + t), static_cast<int32_t>(t)});
  size_t asked = 0;
  for (int r = 0; r < 6; ++r) {
    std::vector<uint32_t> taken;
    const std::vector<size_t> wanted = e.observe(seen, 10 * ms, 3);
    EXPECT_LE(wanted.size(), 3u);
    asked += wanted.size();
    for (size_t i : wanted) taken.push_back(static_cast<uint32_t>(seen[i].thread) + 10);
    add(got, e.charge(taken));
  }
  EXPECT_EQ(asked, 10u);  // each wait's stack once
  double waits = 0;
  uint64_t delay = 0;
  for (const auto& [stack, t] : got) {
    EXPECT_DOUBLE_EQ(t.waits, 1) << stack;
    waits += t.waits;
    delay += t.delay_ns;
  }
  EXPECT_DOUBLE_EQ(waits, 10);
  EXPECT_EQ(delay, 10 * 6 * 10 * ms);
}

TEST(ParkEpisodes, AWaitThatEndedBeforeItsStackGoesToItsLocksStack) {
  ParkEpisodes e;
  std::map<uint32_t, Totals> got;
  // Thread 1 waits two rounds with no stack taken (budget 0), then leaves.
  for (int r = 0; r < 2; ++r) EXPECT_TRUE(e.observe({{1, 11, 9}}, 10 * ms, 0).empty());
  add(got, e.charge({}));
  for (uint64_t r = 0; r <= ParkEpisodes::forget_after_rounds; ++r)
    round(e, {}, 10 * ms, 0, got, [](auto&) { return 0u; });
  EXPECT_EQ(e.orphaned_delay_ns(), 20 * ms);
  // Thread 2 at the same lock: its stack takes what thread 1 left.
  round(e, {{2, 22, 9}}, 10 * ms, 1, got, [](const ParkObservation&) { return 8u; });
  EXPECT_DOUBLE_EQ(got[8].waits, 2);
  EXPECT_EQ(got[8].delay_ns, 30 * ms);
  EXPECT_EQ(e.orphaned_delay_ns(), 0u);
}

// A pileup: 4,000 threads arrive at one lock over 40 rounds, 70% from one
// call site and 30% from another, and stay. Their stacks are mostly drawn
// from the lock's sample, not taken, yet each site's share of the time and
// of the waits comes out as it is, and no time is lost.
TEST(ParkEpisodes, ACrowdAtOneLockIsSampledNotTakenWaitByWait) {
  ParkEpisodes e;
  std::map<uint32_t, Totals> got;
  std::mt19937_64 random(7);
  std::map<int64_t, uint32_t> site;  // the truth, per thread
  std::vector<ParkObservation> seen;
  size_t asked = 0;
  const int rounds = 60;
  uint64_t true_delay[2] = {0, 0};
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; r < 40 && k < 100; ++k) {
      const auto t = static_cast<int64_t>(seen.size() + 1);
      site[t] = random() % 10 < 7 ? 1u : 2u;
      seen.push_back({t, static_cast<int32_t>(t), 9});
    }
    for (const ParkObservation& o : seen) true_delay[site[o.thread] - 1] += 10 * ms;
    std::vector<uint32_t> taken;
    const std::vector<size_t> wanted = e.observe(seen, 10 * ms, 64);
    asked += wanted.size();
    for (size_t i : wanted) taken.push_back(site[seen[i].thread]);
    add(got, e.charge(taken));
  }
  EXPECT_LT(asked, 4000u / 4) << "a stack per wait";
  EXPECT_GT(asked, 4000u / ParkEpisodes::infer_odds / 2);
  const double all = static_cast<double>(true_delay[0] + true_delay[1]);
  EXPECT_EQ(got[1].delay_ns + got[2].delay_ns, true_delay[0] + true_delay[1]);
  EXPECT_NEAR(static_cast<double>(got[1].delay_ns) / all, static_cast<double>(true_delay[0]) / all, 0.05);
  EXPECT_NEAR(got[1].waits + got[2].waits, 4000, 1e-6);
  EXPECT_NEAR(got[1].waits / 4000, 0.7, 0.05);
}

// Waits of 2 ms at random phases, looked at every 10 ms: each is seen with
// probability 0.2 and then counts once and stands for 10 ms, so the
// estimates' expectations are the true totals' (delay) and a fifth of the
// count (contentions: PROFILES.md, what shorter waits count).
TEST(ParkEpisodes, ShortWaitsAreUnbiasedInTimeAndSeenWithProbabilityDOverT) {
  ParkEpisodes e;
  std::map<uint32_t, Totals> got;
  std::mt19937_64 random(42);
  const uint64_t interval = 10 * ms, wait = 2 * ms;
  const int waits = 20'000;
  // Thread w's wait starts at a uniform phase within its own interval.
  for (int w = 0; w < waits; ++w) {
    const uint64_t start = random() % interval;
    std::vector<ParkObservation> seen;
    if (start + wait > interval) seen.push_back({w + 1, w + 1, 9});  // parked at the look at the interval's end
    round(e, seen, interval, 1, got, [](const ParkObservation&) { return 5u; });
  }
  const double true_delay = static_cast<double>(waits) * wait;
  EXPECT_NEAR(static_cast<double>(got[5].delay_ns) / true_delay, 1.0, 0.05);
  EXPECT_NEAR(got[5].waits / waits, 0.2, 0.01);
}

}  // namespace
}  // namespace jvmsight
