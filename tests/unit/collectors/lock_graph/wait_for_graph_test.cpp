#include "collectors/lock_graph/wait_for_graph.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

WaitEdge edge(ThreadKey waiter, int32_t lock, std::optional<ThreadKey> owner, LockKind kind = LockKind::monitor) {
  WaitEdge e;
  e.waiter = waiter;
  e.waiter_name = "t" + std::to_string(waiter);
  e.lock = {lock,
            kind == LockKind::monitor ? "java.lang.Object" : "java.util.concurrent.locks.ReentrantLock$NonfairSync",
            kind};
  e.owner = owner;
  return e;
}

std::vector<ThreadKey> waiters(const DeadlockCycle& c) {
  std::vector<ThreadKey> out;
  for (const auto& e : c.edges) out.push_back(e.waiter);
  return out;
}

TEST(WaitForGraph, EmptyGraphHasNoCycles) { EXPECT_TRUE(WaitForGraph().cycles().empty()); }

TEST(WaitForGraph, TwoThreadMonitorCycle) {
  WaitForGraph g;
  g.add(edge(7, 100, 3));
  g.add(edge(3, 200, 7));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(waiters(cycles[0]), (std::vector<ThreadKey>{3, 7}));  // starts at the smallest id
  EXPECT_TRUE(cycles[0].monitor_only());
  EXPECT_EQ(cycles[0].edges[0].lock.identity_hash, 200);
}

TEST(WaitForGraph, ThreeThreadCycleFollowsOwnerOrder) {
  WaitForGraph g;
  g.add(edge(1, 10, 2));
  g.add(edge(2, 20, 3));
  g.add(edge(3, 30, 1));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(waiters(cycles[0]), (std::vector<ThreadKey>{1, 2, 3}));
}

TEST(WaitForGraph, CycleThroughJucOwnersIsNotMonitorOnly) {
  WaitForGraph g;
  g.add(edge(1, 10, 2, LockKind::juc));
  g.add(edge(2, 20, 1, LockKind::juc));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_FALSE(cycles[0].monitor_only());
}

TEST(WaitForGraph, MixedMonitorAndJucCycle) {
  WaitForGraph g;
  g.add(edge(1, 10, 2, LockKind::monitor));
  g.add(edge(2, 20, 1, LockKind::juc));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_FALSE(cycles[0].monitor_only());
  EXPECT_EQ(cycles[0].edges.size(), 2u);
}

TEST(WaitForGraph, LongChainIsNotACycle) {
  WaitForGraph g;
  for (ThreadKey t = 1; t < 5000; ++t)
    g.add(edge(t, static_cast<int32_t>(t), t + 1, t % 2 ? LockKind::juc : LockKind::monitor));
  EXPECT_TRUE(g.cycles().empty());
  EXPECT_EQ(g.queued_behind().at(5000), 1u);
}

TEST(WaitForGraph, LongCycleIsFoundOnce) {
  WaitForGraph g;
  for (ThreadKey t = 1; t <= 1000; ++t) g.add(edge(t, static_cast<int32_t>(t), t == 1000 ? 1 : t + 1));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(cycles[0].edges.size(), 1000u);
}

TEST(WaitForGraph, TailIntoCycleIsNotPartOfIt) {
  WaitForGraph g;
  g.add(edge(9, 90, 1));  // waits for a deadlocked thread, but is not in the cycle
  g.add(edge(8, 80, 9));
  g.add(edge(1, 10, 2));
  g.add(edge(2, 20, 1));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 1u);
  EXPECT_EQ(waiters(cycles[0]), (std::vector<ThreadKey>{1, 2}));
}

TEST(WaitForGraph, TwoSeparateCyclesInThreadOrder) {
  WaitForGraph g;
  g.add(edge(5, 50, 6));
  g.add(edge(6, 60, 5));
  g.add(edge(2, 20, 3));
  g.add(edge(3, 30, 4));
  g.add(edge(4, 40, 2));
  auto cycles = g.cycles();
  ASSERT_EQ(cycles.size(), 2u);
  EXPECT_EQ(waiters(cycles[0]), (std::vector<ThreadKey>{2, 3, 4}));
  EXPECT_EQ(waiters(cycles[1]), (std::vector<ThreadKey>{5, 6}));
}

TEST(WaitForGraph, SelfLoopIsIgnored) {
  WaitForGraph g;
  g.add(edge(1, 10, 1, LockKind::juc));
  EXPECT_TRUE(g.cycles().empty());
  EXPECT_TRUE(g.queued_behind().empty());
}

TEST(WaitForGraph, UnownedLocksEndTheWalk) {
  WaitForGraph g;
  g.add(edge(1, 10, std::nullopt, LockKind::juc));  // e.g. a Semaphore: no owner
  g.add(edge(2, 10, 1));
  EXPECT_TRUE(g.cycles().empty());
}

TEST(WaitForGraph, ManyBlockedOnOneHolderIsNotADeadlock) {
  WaitForGraph g;
  for (ThreadKey t = 2; t < 50; ++t) g.add(edge(t, 10, 1));
  EXPECT_TRUE(g.cycles().empty());
  EXPECT_EQ(g.queued_behind().at(1), 48u);
}

TEST(WaitForGraph, CycleKeyChangesWhenAnOwnerOrLockChanges) {
  WaitForGraph a, b, c;
  a.add(edge(1, 10, 2));
  a.add(edge(2, 20, 1));
  b.add(edge(1, 10, 2));
  b.add(edge(2, 20, 1));
  c.add(edge(1, 11, 2));
  c.add(edge(2, 20, 1));
  EXPECT_EQ(a.cycles()[0].key(), b.cycles()[0].key());
  EXPECT_NE(a.cycles()[0].key(), c.cycles()[0].key());
}

}  // namespace
TEST(HotspotDeadlocked, ListsWalkersThatReachANewCycleInThreadListOrder) {
  WaitForGraph g;
  auto add = [&](ThreadKey waiter, ThreadKey owner, LockKind kind = LockKind::monitor) {
    WaitEdge e;
    e.waiter = waiter;
    e.owner = owner;
    e.lock.kind = kind;
    g.add(e);
  };
  add(1, 2);
  add(2, 1);
  add(3, 1);  // a bystander waiting on the cycle
  add(4, 3);  // waiting on the bystander
  // The bystanders come first: their walks close the cycle and list them.
  EXPECT_EQ(g.hotspot_deadlocked({4, 3, 1, 2}, false), (std::set<ThreadKey>{1, 2, 3, 4}));
  // The cycle comes first: later walks run into threads already seen.
  EXPECT_EQ(g.hotspot_deadlocked({1, 2, 3, 4}, false), (std::set<ThreadKey>{1, 2}));
  EXPECT_EQ(g.hotspot_deadlocked({3, 1, 2, 4}, false), (std::set<ThreadKey>{1, 2, 3}));
  // No cycle: a chain ends in a thread that waits for nothing.
  WaitForGraph chain;
  WaitEdge e;
  e.waiter = 5;
  e.owner = 6;
  chain.add(e);
  EXPECT_TRUE(chain.hotspot_deadlocked({5, 6}, false).empty());
}

TEST(HotspotDeadlocked, MonitorsOnlyIgnoresOwnableSynchronizerWaitsAndSelfLoopsAreNoCycle) {
  WaitForGraph g;
  auto add = [&](ThreadKey waiter, ThreadKey owner, LockKind kind) {
    WaitEdge e;
    e.waiter = waiter;
    e.owner = owner;
    e.lock.kind = kind;
    g.add(e);
  };
  add(1, 2, LockKind::monitor);
  add(2, 1, LockKind::juc);
  add(3, 3, LockKind::juc);  // waits for a lock it owns itself
  EXPECT_EQ(g.hotspot_deadlocked({1, 2, 3}, false), (std::set<ThreadKey>{1, 2}));
  EXPECT_TRUE(g.hotspot_deadlocked({1, 2, 3}, true).empty());
}

}  // namespace jvmsight
