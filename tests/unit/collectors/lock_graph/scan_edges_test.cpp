// The last step of a lock-graph scan: waits resolved by the JVM become the
// scrape's queue counts or the background check's graph.
#include "collectors/lock_graph/scan_edges.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

ScanLock lock(LockKind kind, int32_t hash, std::optional<ThreadKey> owner, std::string owner_name = "",
              std::string class_name = "") {
  ScanLock l;
  l.kind = kind;
  l.hash = hash;
  l.owner_id = owner;
  l.owner_name = std::move(owner_name);
  l.class_name = std::move(class_name);
  return l;
}

ScanWaiter waiter(ThreadKey id, size_t lock) {
  ScanWaiter w;
  w.id = id;
  w.lock = lock;
  return w;
}

TEST(ScanEdges, AScrapeCountsQueuesPerHolderAndBuildsNoGraph) {
  std::vector<ScanLock> locks{lock(LockKind::monitor, 1, 9, "holder", "Cache"),
                              lock(LockKind::juc, 2, std::nullopt, "", "Semaphore$NonfairSync"),
                              lock(LockKind::juc, 3, 4, "self", "ReentrantLock$NonfairSync")};
  // 1-3 behind holder 9, 5 on an unowned semaphore, 4 re-waiting for its own lock.
  std::vector<ScanWaiter> waiters{waiter(1, 0), waiter(2, 0), waiter(3, 0), waiter(5, 1), waiter(4, 2)};
  LockScan out;
  add_scan_edges(waiters, locks, true, out);
  ASSERT_TRUE(out.queues);
  EXPECT_EQ(out.queues->monitor_waiters, 3u);
  EXPECT_EQ(out.queues->juc_waiters, 2u);
  ASSERT_EQ(out.queues->queued.size(), 1u);  // nobody queues behind themselves or an unowned lock
  const auto& [holder, queued] = *out.queues->queued.begin();
  EXPECT_EQ(holder.id, 9);
  EXPECT_EQ(holder.name, "holder");
  EXPECT_EQ(holder.lock_class, "Cache");
  EXPECT_EQ(queued, 3u);
  EXPECT_TRUE(out.graph.empty());
}

TEST(ScanEdges, APileupBehindARunningHolderAddsNoEdge) {
  std::vector<ScanLock> locks{lock(LockKind::monitor, 1, 9)};
  std::vector<ScanWaiter> waiters;
  for (ThreadKey id = 10; id < 110; ++id) waiters.push_back(waiter(id, 0));
  LockScan out;
  add_scan_edges(waiters, locks, false, out);
  EXPECT_TRUE(out.graph.empty());  // 9 runs: no thread that owns a lock waits
  EXPECT_FALSE(out.queues);
}

TEST(ScanEdges, ACycleBringsEveryEdgeWithIt) {
  // 1 and 2 deadlocked (monitor 10 owned by 2, lock 20 owned by 1); 3 waits behind 1.
  std::vector<ScanLock> locks{lock(LockKind::monitor, 10, 2), lock(LockKind::juc, 20, 1)};
  std::vector<ScanWaiter> waiters{waiter(1, 0), waiter(2, 1), waiter(3, 1)};
  LockScan out;
  add_scan_edges(waiters, locks, false, out);
  ASSERT_EQ(out.graph.cycles().size(), 1u);
  EXPECT_EQ(out.graph.edges().size(), 3u);  // the bystander counts for the deadlocked gauges
  EXPECT_EQ(out.graph.edges().at(1).lock.identity_hash, 10);
  EXPECT_EQ(out.graph.edges().at(2).lock.kind, LockKind::juc);
}

TEST(ScanEdges, ReusedMonitorEdgesNameOwnersToo) {
  // The edge 1 -> 2 was reused from the last check; 2 now parks on 1's lock.
  LockScan out;
  WaitEdge reused;
  reused.waiter = 1;
  reused.lock.identity_hash = 10;
  reused.owner = 2;
  out.graph.add(reused);
  std::vector<ScanLock> locks{lock(LockKind::juc, 20, 1)};
  add_scan_edges({waiter(2, 0)}, locks, false, out);
  EXPECT_EQ(out.graph.cycles().size(), 1u);
}

}  // namespace
}  // namespace jvmsight
