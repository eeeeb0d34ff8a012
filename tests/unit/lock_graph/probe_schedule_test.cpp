#include "collectors/lock_graph/probe_schedule.h"

#include <gtest/gtest.h>

#include <set>

namespace jvmsight {
namespace {

using Clock = ProbeSchedule::Clock;
using std::chrono::milliseconds;

LockWait on(ThreadKey thread, int32_t lock) {
  LockWait w;
  w.thread = thread;
  w.lock_hash = lock;
  w.owner = 1;
  return w;
}

TEST(ProbeSchedule, NewWaitsAreLookedAtOnce) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  e.observe({on(10, 1), on(11, 2)}, {}, now);
  auto picked = s.pick(e, now);
  EXPECT_EQ(std::set<ThreadKey>(picked.begin(), picked.end()), (std::set<ThreadKey>{10, 11}));
  for (ThreadKey t : picked) e.all().at(t).examined = true;
  EXPECT_TRUE(s.pick(e, now).empty());
}

// A pileup of 1,000 on one lock does not keep the rare lock's waiter waiting.
TEST(ProbeSchedule, OneWaiterPerLockInTurnAndAtMostSomePerCheck) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  std::vector<LockWait> waits;
  for (ThreadKey t = 100; t < 1100; ++t) waits.push_back(on(t, 7));
  e.observe(waits, {}, now);
  now += milliseconds(500);
  waits.push_back(on(5, 8));  // later, on another lock
  e.observe(waits, {}, now);
  auto picked = s.pick(e, now);
  ASSERT_EQ(picked.size(), ProbeSchedule::max_per_check);
  EXPECT_EQ(picked[0], 100);  // the pileup's oldest waiter, then the other lock's
  EXPECT_EQ(picked[1], 5);
  EXPECT_EQ(picked[2], 101);
}

// A monitor wait the check reused is not at hand: its thread waits for a
// fresh scan, and does not take another's turn meanwhile.
TEST(ProbeSchedule, OnlyWaitsTheLastScanReadArePicked) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  LockWait parked = on(11, 2);
  parked.kind = LockKind::juc;
  e.observe({on(10, 1), parked}, {}, now);
  e.observe({parked}, WaitCoverage{false, true}, now);
  EXPECT_EQ(s.pick(e, now), (std::vector<ThreadKey>{11}));
  e.observe({on(10, 1), parked}, {}, now);
  EXPECT_EQ(s.pick(e, now).size(), 2u);
}

// A few new waits at once are looked at at once; a backlog is worked off
// at 0.2% of the time (JDK 8 at 10,000 threads: a safepoint each).
TEST(ProbeSchedule, BudgetOfAFifthOfAPercentWithABurst) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  e.observe({on(10, 1)}, {}, now);
  EXPECT_EQ(s.pick(e, now).size(), 1u);  // a full burst to start with
  s.spent(ProbeSchedule::max_burst + milliseconds(20));
  EXPECT_TRUE(s.pick(e, now + milliseconds(9999)).empty());  // 20 ms of debt: 10 s to repay
  EXPECT_EQ(s.pick(e, now + milliseconds(10001)).size(), 1u);
  // Idle for long, the budget is one burst, not more.
  s.spent(milliseconds(1));
  now += std::chrono::hours(1);
  EXPECT_EQ(s.pick(e, now).size(), 1u);
  s.spent(ProbeSchedule::max_burst + milliseconds(1));
  EXPECT_TRUE(s.pick(e, now + milliseconds(1)).empty());
}

}  // namespace
}  // namespace jvmsight
