#include "collectors/lock_graph/lock_order_graph.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

LockVertex lock(LockNode n, const std::string& cls = "Account") {
  return {n, {static_cast<int32_t>(1000 + n), cls, LockKind::monitor}};
}

FrameRecord site(const std::string& method, int line) { return {"Bank", method, "Bank.java", line, false, {}}; }

struct Graph {
  LockOrderGraph g{64, 8};
  // Thread `thread` holds `held` and waits for `wanted`.
  std::vector<LockOrderInversion> wait(ThreadKey thread, std::vector<LockNode> held, LockNode wanted,
                                       const std::string& method = "transfer", int line = 10) {
    std::vector<LockVertex> h;
    for (LockNode n : held) h.push_back(lock(n));
    return g.add(h, lock(wanted), thread, "t" + std::to_string(thread), site(method, line));
  }
};

TEST(LockOrderGraph, OppositeOrdersAtDifferentTimesAreOneInversion) {
  Graph f;
  EXPECT_TRUE(f.wait(1, {1}, 2, "debit", 20).empty());  // A -> B
  auto found = f.wait(2, {2}, 1, "credit", 30);         // B -> A, later, by another thread
  ASSERT_EQ(found.size(), 1u);
  const LockOrderInversion& inv = found[0];
  ASSERT_EQ(inv.orders.size(), 2u);
  // Starts at the smallest node: A -> B first, each order with who took it and where.
  EXPECT_EQ(inv.orders[0].from.identity_hash, 1001);
  EXPECT_EQ(inv.orders[0].to.identity_hash, 1002);
  EXPECT_EQ(inv.orders[0].thread, 1);
  EXPECT_EQ(inv.orders[0].thread_name, "t1");
  EXPECT_EQ(inv.orders[0].site.method, "debit");
  EXPECT_EQ(inv.orders[0].site.line, 20);
  EXPECT_EQ(inv.orders[1].from.identity_hash, 1002);
  EXPECT_EQ(inv.orders[1].to.identity_hash, 1001);
  EXPECT_EQ(inv.orders[1].thread, 2);
  EXPECT_EQ(inv.orders[1].site.method, "credit");
  EXPECT_EQ(f.g.inversion_count(), 1u);
  EXPECT_EQ(f.g.inversions().at(0).orders.size(), 2u);
}

TEST(LockOrderGraph, ConsistentOrderIsNoInversion) {
  Graph f;
  for (ThreadKey t = 1; t <= 5; ++t) EXPECT_TRUE(f.wait(t, {1}, 2).empty());
  EXPECT_TRUE(f.wait(9, {2}, 3).empty());  // A -> B -> C: a chain, no cycle
  EXPECT_TRUE(f.wait(9, {1}, 3).empty());
  EXPECT_EQ(f.g.inversion_count(), 0u);
  EXPECT_EQ(f.g.edge_count(), 3u);
}

TEST(LockOrderGraph, EachCycleIsReportedOnce) {
  Graph f;
  f.wait(1, {1}, 2);
  ASSERT_EQ(f.wait(2, {2}, 1).size(), 1u);
  EXPECT_TRUE(f.wait(3, {1}, 2).empty());
  EXPECT_TRUE(f.wait(4, {2}, 1).empty());
  EXPECT_EQ(f.g.inversion_count(), 1u);
}

// Both orders taken while holding G: the two threads can never hold their
// first lock at the same time, so no deadlock. lockdep reports it; not here.
TEST(LockOrderGraph, CommonGateIsNoInversionUntilAnOrderIsTakenWithoutIt) {
  Graph f;
  const LockNode gate = 7;
  EXPECT_TRUE(f.wait(1, {gate, 1}, 2).empty());
  EXPECT_TRUE(f.wait(2, {gate, 2}, 1).empty());
  EXPECT_EQ(f.g.inversion_count(), 0u);
  // B -> A once more, now under another lock: G no longer guards every time.
  EXPECT_EQ(f.wait(3, {8, 2}, 1).size(), 1u);
  EXPECT_EQ(f.g.inversion_count(), 1u);
}

// A gate's node must stay while an order names it, or the same lock would
// come back under a new node and no longer match: even when the gate's own
// order (7 -> 2) was forgotten to the cap.
TEST(LockOrderGraph, GatesKeepTheirNodes) {
  LockOrderGraph g{2, 8};
  g.add({lock(7), lock(1)}, lock(2), 1, "t", site("m", 1));  // 7 -> 2, then 1 -> 2 under gate 7
  g.add({lock(3)}, lock(4), 1, "t", site("m", 1));           // forgets 7 -> 2
  EXPECT_EQ(g.forgotten_edges(), 1u);
  EXPECT_TRUE(g.uses(7));
  g.add({lock(1)}, lock(2), 2, "t", site("m", 1));  // without the gate: 7 guards nothing now
  EXPECT_FALSE(g.uses(7));
}

TEST(LockOrderGraph, GateMustBeHeldAtEveryOrderOfTheCycle) {
  Graph f;
  f.wait(1, {7, 1}, 2);
  auto found = f.wait(2, {8, 2}, 1);  // another gate: both could run at once
  EXPECT_EQ(found.size(), 1u);
}

TEST(LockOrderGraph, GateHeldByOneOrderOfAThreeLockCycleDoesNotCount) {
  Graph f;
  f.wait(1, {7, 1}, 2);
  f.wait(2, {7, 2}, 3);
  EXPECT_EQ(f.wait(3, {3}, 1).size(), 1u);
}

TEST(LockOrderGraph, BankTransferOnTwoInstancesOfOneClass) {
  LockOrderGraph g{64, 8};
  LockVertex a{1, {111, "Bank$Account", LockKind::monitor}};
  LockVertex b{2, {222, "Bank$Account", LockKind::monitor}};
  EXPECT_TRUE(g.add({a}, b, 1, "teller-1", site("transfer", 42)).empty());
  auto found = g.add({b}, a, 2, "teller-2", site("transfer", 42));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].orders[0].from.class_name, "Bank$Account");
  EXPECT_EQ(found[0].orders[0].to.class_name, "Bank$Account");
  EXPECT_NE(found[0].orders[0].from.identity_hash, found[0].orders[0].to.identity_hash);
}

TEST(LockOrderGraph, ThreeLockCycle) {
  Graph f;
  f.wait(1, {1}, 2);
  f.wait(2, {2}, 3);
  auto found = f.wait(3, {3}, 1);
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0].orders.size(), 3u);
  EXPECT_EQ(found[0].orders[0].thread, 1);
  EXPECT_EQ(found[0].orders[1].thread, 2);
  EXPECT_EQ(found[0].orders[2].thread, 3);
}

TEST(LockOrderGraph, MixedKindsKeepTheirDescriptions) {
  LockOrderGraph g{64, 8};
  LockVertex m{1, {5, "Resource", LockKind::monitor}};
  LockVertex j{2, {6, "java.util.concurrent.locks.ReentrantLock$NonfairSync", LockKind::juc}};
  g.add({m}, j, 1, "a", site("x", 1));
  auto found = g.add({j}, m, 2, "b", site("y", 2));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].orders[0].to.kind, LockKind::juc);
  EXPECT_EQ(found[0].orders[1].to.kind, LockKind::monitor);
}

TEST(LockOrderGraph, EveryHeldLockGivesAnOrder) {
  Graph f;
  f.wait(1, {1, 2}, 3);  // 1 -> 3 (gate 2) and 2 -> 3 (gate 1)
  EXPECT_EQ(f.g.edge_count(), 2u);
  auto found = f.wait(2, {3}, 2);  // 3 -> 2: the 2 -> 3 order's gate (1) is not held here
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].orders[0].from.identity_hash, 1002);
}

TEST(LockOrderGraph, WaitingForAHeldLockIsNoOrder) {
  Graph f;
  EXPECT_TRUE(f.wait(1, {1}, 1).empty());
  EXPECT_EQ(f.g.edge_count(), 0u);
}

TEST(LockOrderGraph, KnowsAllSaysWhenNoCallSiteIsNeeded) {
  Graph f;
  f.wait(1, {1}, 2);
  EXPECT_TRUE(f.g.knows_all({lock(1)}, 2));
  EXPECT_TRUE(f.g.knows_all({lock(1), lock(2)}, 2));  // 2 -> 2 is no order
  EXPECT_FALSE(f.g.knows_all({lock(1), lock(3)}, 2));
  EXPECT_TRUE(f.g.knows_all({}, 2));
}

TEST(LockOrderGraph, CapForgetsTheLeastRecentlySeenOrderAndCountsIt) {
  LockOrderGraph g{2, 8};
  auto take = [&](LockNode from, LockNode to) { return g.add({lock(from)}, lock(to), 1, "t", site("m", 1)); };
  take(1, 2);
  take(3, 4);
  take(1, 2);  // seen again: now the most recent
  take(5, 6);  // forgets 3 -> 4
  EXPECT_EQ(g.edge_count(), 2u);
  EXPECT_EQ(g.forgotten_edges(), 1u);
  EXPECT_TRUE(take(4, 3).empty());   // its reverse finds nothing: 3 -> 4 is gone
  EXPECT_EQ(take(2, 1).size(), 0u);  // 1 -> 2 was forgotten to make room for 4 -> 3
  EXPECT_EQ(g.forgotten_edges(), 3u);
  EXPECT_EQ(g.edge_count(), 2u);
}

TEST(LockOrderGraph, CollectedLockLeavesWithItsOrdersAndInversions) {
  Graph f;
  f.wait(1, {1}, 2);
  f.wait(2, {2}, 1);
  f.wait(3, {2}, 3);
  ASSERT_EQ(f.g.inversion_count(), 1u);
  EXPECT_TRUE(f.g.uses(1));
  f.g.forget(1);
  EXPECT_EQ(f.g.inversion_count(), 0u);
  EXPECT_EQ(f.g.edge_count(), 1u);  // 2 -> 3 stays
  EXPECT_FALSE(f.g.uses(1));
  EXPECT_TRUE(f.g.uses(2));
  f.g.forget(2);
  EXPECT_FALSE(f.g.uses(3));
  EXPECT_EQ(f.g.edge_count(), 0u);
}

TEST(LockOrderGraph, InversionCapLetsTheOldestGoWithoutReportingItAgain) {
  LockOrderGraph g{64, 1};
  auto take = [&](std::vector<LockNode> held, LockNode to) {
    std::vector<LockVertex> h;
    for (LockNode n : held) h.push_back(lock(n));
    return g.add(h, lock(to), 1, "t", site("m", 1));
  };
  take({1, 9}, 2);
  EXPECT_EQ(take({2}, 1).size(), 1u);
  take({3}, 4);
  EXPECT_EQ(take({4}, 3).size(), 1u);  // the cap: 1-2 is let go
  EXPECT_EQ(g.inversion_count(), 1u);
  EXPECT_EQ(g.inversions().at(0).orders[0].from.identity_hash, 1003);
  // 1 -> 2 without its gate: a new search finds the 1-2 cycle, reported before.
  EXPECT_TRUE(take({1}, 2).empty());
  EXPECT_EQ(g.inversion_count(), 1u);
}

TEST(LockOrderGraph, LongerCyclesThanTheBoundAreNotSearched) {
  LockOrderGraph g{64, 8};
  const LockNode n = LockOrderGraph::max_cycle_locks + 1;
  for (LockNode i = 1; i < n; ++i) g.add({lock(i)}, lock(i + 1), 1, "t", site("m", 1));
  EXPECT_TRUE(g.add({lock(n)}, lock(1), 1, "t", site("m", 1)).empty());
  LockOrderGraph h{64, 8};
  const LockNode m = LockOrderGraph::max_cycle_locks;
  for (LockNode i = 1; i < m; ++i) h.add({lock(i)}, lock(i + 1), 1, "t", site("m", 1));
  EXPECT_EQ(h.add({lock(m)}, lock(1), 1, "t", site("m", 1)).size(), 1u);
}

}  // namespace
}  // namespace jvmsight
