#pragma once
// Who waits for whom: each waiting thread wants one lock, and a lock has at
// most one exclusive owner, so the graph thread -> owner thread has at most
// one edge out of every node. A deadlock is a cycle of such edges. Pure: no
// JVM, so cycle finding is unit-tested on its own.
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "model/deadlock.h"

namespace jvmsight {

class WaitForGraph {
 public:
  // One edge per waiting thread; a second edge for the same waiter replaces the first.
  void add(WaitEdge edge);
  const std::map<ThreadKey, WaitEdge>& edges() const { return edges_; }
  bool empty() const { return edges_.empty(); }

  // Every cycle once, in ascending order of its first thread. A thread that
  // waits for a lock it owns itself (a self-loop) is not a cycle: HotSpot's
  // own detector ignores those too, and for monitors it cannot happen.
  // Computed once per graph (a scan asks several times; the walk costs about
  // 100 ns an edge with thousands of waiters).
  std::vector<DeadlockCycle> cycles() const;

  // The threads ThreadMXBean.findDeadlockedThreads lists (monitors_only:
  // findMonitorDeadlockedThreads, which follows monitor waits only).
  // HotSpot walks the chain of waits from each thread in the order of its
  // thread list; a walk that closes a new cycle lists every thread it
  // passed. So a thread waiting on a deadlocked one is listed when it comes
  // before the cycle's threads in that order, and not when it comes after.
  // list_order: the waiting threads in the JVM's thread-list order. Virtual
  // threads, which HotSpot does not list (findDeadlockedThreads never has
  // them), are walked after, so their cycles count too.
  std::set<ThreadKey> hotspot_deadlocked(const std::vector<ThreadKey>& list_order, bool monitors_only) const;

  // Threads waiting directly on locks each owner holds: owner -> count.
  std::map<ThreadKey, size_t> queued_behind() const;

 private:
  std::vector<DeadlockCycle> find_cycles() const;
  std::map<ThreadKey, WaitEdge> edges_;
  mutable std::optional<std::vector<DeadlockCycle>> cycles_;  // reset by add()
};

}  // namespace jvmsight
