#include "collectors/lock_graph/stuck_reports.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

using Clock = StuckReports::Clock;

WaitEpisode stuck_on(ThreadKey thread, int32_t lock) {
  WaitEpisode e;
  e.wait.thread = thread;
  e.wait.lock_hash = lock;
  return e;
}

// A pileup stuck behind one held lock: one report names the lock, its
// owner and the owner's stack; the other waiters are one count.
TEST(StuckReports, FirstWaiterOfALockIsDescribedTheRestCounted) {
  StuckReports r;
  Clock::time_point now{};
  std::vector<WaitEpisode> newly;
  for (ThreadKey t = 1; t <= 1000; ++t) newly.push_back(stuck_on(t, 7));
  newly.push_back(stuck_on(2000, 8));
  auto split = r.split(newly, now);
  ASSERT_EQ(split.described.size(), 2u);
  EXPECT_EQ(split.described[0].wait.thread, 1);
  EXPECT_EQ(split.described[1].wait.thread, 2000);
  ASSERT_EQ(split.counted.size(), 1u);
  EXPECT_EQ(split.counted[0].first.lock_hash, 7);
  EXPECT_EQ(split.counted[0].second, 999u);
  // Later waiters of a lock described and counted a moment ago: the gauge
  // counts them, nothing is said.
  split = r.split({stuck_on(3000, 7), stuck_on(3001, 7)}, now + std::chrono::minutes(1));
  EXPECT_TRUE(split.described.empty());
  EXPECT_TRUE(split.counted.empty());
  // A quiet while later, a new episode on that lock is described again.
  split = r.split({stuck_on(4000, 7)}, now + std::chrono::minutes(12));
  EXPECT_EQ(split.described.size(), 1u);
}

TEST(StuckReports, AtMostSomeDescribedPerCheck) {
  StuckReports r;
  std::vector<WaitEpisode> newly;
  for (int32_t lock = 1; lock <= 10; ++lock) newly.push_back(stuck_on(lock, lock));
  auto split = r.split(newly, Clock::time_point{});
  EXPECT_EQ(split.described.size(), StuckReports::max_described);
  EXPECT_EQ(split.counted.size(), 10 - StuckReports::max_described);
}

}  // namespace
}  // namespace jvmsight
