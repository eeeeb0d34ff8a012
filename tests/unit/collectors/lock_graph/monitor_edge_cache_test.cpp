// The deadlock check's reuse of monitor edges between checks: what may be
// reused, for how long, and what voids it.
#include "collectors/lock_graph/monitor_edge_cache.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

WaitEdge edge(ThreadKey waiter, int32_t lock, ThreadKey owner, LockKind kind = LockKind::monitor) {
  WaitEdge e;
  e.waiter = waiter;
  e.lock.identity_hash = lock;
  e.lock.kind = kind;
  e.owner = owner;
  return e;
}

// Two threads queued behind a running holder (9), one parked on a j.u.c. lock.
WaitForGraph pileup() {
  WaitForGraph g;
  g.add(edge(1, 10, 9));
  g.add(edge(2, 10, 9));
  g.add(edge(3, 20, 9, LockKind::juc));
  return g;
}

const std::vector<jint> candidates{4, 7, 8};

TEST(MonitorEdgeCache, NothingToReuseBeforeAWholeSetIsRemembered) {
  MonitorEdgeCache cache;
  EXPECT_FALSE(cache.try_reuse(candidates, true));
  EXPECT_FALSE(cache.reused_last());
}

TEST(MonitorEdgeCache, KeepsOnlyMonitorEdgesForTheSameCandidates) {
  MonitorEdgeCache cache;
  cache.remember(candidates, pileup(), true);
  ASSERT_TRUE(cache.try_reuse(candidates, true));
  EXPECT_TRUE(cache.reused_last());
  ASSERT_EQ(cache.edges().size(), 2u);  // j.u.c. edges are read afresh every check
  for (const auto& e : cache.edges()) EXPECT_EQ(e.lock.kind, LockKind::monitor);
  // Other threads are candidates now: their edges are unknown.
  EXPECT_FALSE(cache.try_reuse({4, 7}, true));
  EXPECT_FALSE(cache.reused_last());
}

TEST(MonitorEdgeCache, NewBlockingForbidsReuse) {
  MonitorEdgeCache cache;
  cache.remember(candidates, pileup(), true);
  EXPECT_FALSE(cache.try_reuse(candidates, false));
  EXPECT_TRUE(cache.try_reuse(candidates, true));  // the remembered set still stands
}

TEST(MonitorEdgeCache, EveryFourthCheckIsFresh) {
  MonitorEdgeCache cache;
  cache.remember(candidates, pileup(), true);
  for (int i = 0; i < MonitorEdgeCache::max_reuse; ++i) EXPECT_TRUE(cache.try_reuse(candidates, true)) << i;
  EXPECT_FALSE(cache.try_reuse(candidates, true));
  cache.remember(candidates, pileup(), true);  // what the fresh check read
  EXPECT_TRUE(cache.try_reuse(candidates, true));
}

// JDK 8's monitor queries are safepoints (tens of ms at 10,000 threads):
// reuse goes on until 400 times a fresh read's cost has passed, 16 s at most.
TEST(MonitorEdgeCache, ADearFreshReadIsSpacedByItsCost) {
  using namespace std::chrono;
  MonitorEdgeCache cache;
  const auto t0 = MonitorEdgeCache::Clock::time_point{} + hours(1);
  cache.remember(candidates, pileup(), true, milliseconds(20), t0);  // due 8 s later
  for (int i = 1; i < 16; ++i)
    EXPECT_TRUE(cache.try_reuse(candidates, true, t0 + milliseconds(500) * i)) << i;  // past max_reuse
  EXPECT_FALSE(cache.try_reuse(candidates, true, t0 + milliseconds(8000)));           // fresh
  // Not for new blocking or other candidates, however recent.
  cache.remember(candidates, pileup(), true, milliseconds(20), t0);
  EXPECT_FALSE(cache.try_reuse(candidates, false, t0 + milliseconds(500)));
  EXPECT_FALSE(cache.try_reuse({4, 7}, true, t0 + milliseconds(500)));
  // A read of a second costs no more than 16 s of reuse.
  cache.remember(candidates, pileup(), true, seconds(1), t0);
  for (int i = 0; i < MonitorEdgeCache::max_reuse; ++i) EXPECT_TRUE(cache.try_reuse(candidates, true, t0)) << i;
  EXPECT_TRUE(cache.try_reuse(candidates, true, t0 + milliseconds(15999)));
  EXPECT_FALSE(cache.try_reuse(candidates, true, t0 + seconds(16)));
  // A cheap one (JDK 17+: 0.1 ms) leaves every fourth check fresh.
  cache.remember(candidates, pileup(), true, microseconds(100), t0);
  for (int i = 1; i <= MonitorEdgeCache::max_reuse; ++i)
    EXPECT_TRUE(cache.try_reuse(candidates, true, t0 + milliseconds(500) * i)) << i;
  EXPECT_FALSE(cache.try_reuse(candidates, true, t0 + milliseconds(2000)));
}

TEST(MonitorEdgeCache, ACycleOrAPartialSetIsNeverReused) {
  MonitorEdgeCache cache;
  WaitForGraph cycle = pileup();
  cycle.add(edge(9, 30, 1));
  cache.remember(candidates, cycle, true);
  EXPECT_FALSE(cache.try_reuse(candidates, true));
  cache.remember(candidates, pileup(), false);
  EXPECT_FALSE(cache.try_reuse(candidates, true));
}

TEST(MonitorEdgeCache, InvalidatedByANewThreadList) {
  MonitorEdgeCache cache;
  cache.remember(candidates, pileup(), true);
  cache.invalidate();
  EXPECT_FALSE(cache.try_reuse(candidates, true));
}

}  // namespace
}  // namespace jvmsight
