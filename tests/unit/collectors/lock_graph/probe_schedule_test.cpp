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

// What the probe does with a pick: looks at each (counted against its lock).
void look_at(WaitEpisodes& e, ProbeSchedule& s, const std::vector<ThreadKey>& threads, Clock::time_point now) {
  for (ThreadKey t : threads) {
    e.all().at(t).examined = true;
    s.looked(e.all().at(t).wait, now);
  }
}

TEST(ProbeSchedule, NewWaitsAreLookedAtOnce) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  e.observe({on(10, 1), on(11, 2)}, {}, now);
  auto picked = s.pick(e, now);
  EXPECT_EQ(std::set<ThreadKey>(picked.look.begin(), picked.look.end()), (std::set<ThreadKey>{10, 11}));
  EXPECT_TRUE(picked.skip.empty());
  look_at(e, s, picked.look, now);
  EXPECT_TRUE(s.pick(e, now).look.empty());
}

// The rare lock's waiter is not kept waiting behind a pileup on another.
TEST(ProbeSchedule, OneWaiterPerLockInTurnAndAtMostSomePerCheck) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  std::vector<LockWait> waits;
  for (ThreadKey t = 100; t < 140; ++t) waits.push_back(on(t, 7));
  e.observe(waits, {}, now);
  now += milliseconds(500);
  waits.push_back(on(5, 8));  // later, on another lock
  e.observe(waits, {}, now);
  auto picked = s.pick(e, now).look;
  ASSERT_EQ(picked.size(), ProbeSchedule::max_per_check);
  EXPECT_EQ(picked[0], 100);  // the pileup's oldest waiter, then the other lock's
  EXPECT_EQ(picked[1], 5);
  EXPECT_EQ(picked[2], 101);
}

// A pileup of 1,000 new waits on one lock: max_per_lock of them are looked
// at, the rest never (the same code, holding the same nothing); the quota
// is back a window later.
TEST(ProbeSchedule, PileupBeyondTheLockQuotaIsSkipped) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  std::vector<LockWait> waits;
  for (ThreadKey t = 1000; t < 2000; ++t) waits.push_back(on(t, 7));
  e.observe(waits, {}, now);
  size_t looked = 0, skipped = 0;
  for (int check = 0; check < 20; ++check, now += milliseconds(500)) {
    e.observe(waits, {}, now);
    auto picked = s.pick(e, now);
    look_at(e, s, picked.look, now);
    looked += picked.look.size();
    skipped += picked.skip.size();
    for (ThreadKey t : picked.skip) e.all().at(t).examined = true;
  }
  EXPECT_EQ(looked, ProbeSchedule::max_per_lock);
  EXPECT_EQ(looked + skipped, 1000u);
  now += ProbeSchedule::quota_window;
  e.observe({on(3000, 7)}, {}, now);
  EXPECT_EQ(s.pick(e, now).look, (std::vector<ThreadKey>{3000}));
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
  EXPECT_EQ(s.pick(e, now).look, (std::vector<ThreadKey>{11}));
  e.observe({on(10, 1), parked}, {}, now);
  EXPECT_EQ(s.pick(e, now).look.size(), 2u);
}

// A few new waits at once are looked at at once; many are worked off at
// 0.2% of the time (JDK 8 at 10,000 threads: a safepoint each).
TEST(ProbeSchedule, BudgetOfAFifthOfAPercentWithABurst) {
  WaitEpisodes e{std::chrono::seconds(60)};
  ProbeSchedule s;
  Clock::time_point now{};
  e.observe({on(10, 1)}, {}, now);
  EXPECT_EQ(s.pick(e, now).look.size(), 1u);  // a full burst to start with
  s.spent(ProbeSchedule::max_burst + milliseconds(20));
  EXPECT_TRUE(s.pick(e, now + milliseconds(9999)).look.empty());  // 20 ms of debt: 10 s to repay
  EXPECT_EQ(s.pick(e, now + milliseconds(10001)).look.size(), 1u);
  // Idle for long, the budget is one burst, not more.
  s.spent(milliseconds(1));
  now += std::chrono::hours(1);
  EXPECT_EQ(s.pick(e, now).look.size(), 1u);
  s.spent(ProbeSchedule::max_burst + milliseconds(1));
  EXPECT_TRUE(s.pick(e, now + milliseconds(1)).look.empty());
}

}  // namespace
}  // namespace jvmsight
