#pragma once
// Who waits for whom: each waiting thread wants one lock, and a lock has at
// most one exclusive owner, so the graph thread -> owner thread has at most
// one edge out of every node. A deadlock is a cycle of such edges. Pure: no
// JVM, so cycle finding is unit-tested on its own.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace jvmsight {

using ThreadKey = int64_t;  // java.lang.Thread id (Thread.getId)

enum class LockKind {
  monitor,  // a `synchronized` object, entered but not yet owned
  juc,      // an AbstractOwnableSynchronizer (ReentrantLock, RRWL write lock...) the thread parks on
};

struct LockId {
  int32_t identity_hash = 0;  // System.identityHashCode: what jstack-like lines print as <0x...>
  std::string class_name;     // java.lang.Object, java.util.concurrent.locks.ReentrantLock$NonfairSync
  LockKind kind = LockKind::monitor;
  bool operator==(const LockId& o) const {
    return identity_hash == o.identity_hash && kind == o.kind && class_name == o.class_name;
  }
  bool operator!=(const LockId& o) const { return !(*this == o); }
};

struct WaitEdge {
  ThreadKey waiter = 0;
  std::string waiter_name;
  LockId lock;
  std::optional<ThreadKey> owner;  // none: unowned, unknown, or shared (read locks, semaphores)
  std::string owner_name;
};

struct DeadlockCycle {
  std::vector<WaitEdge> edges;  // around the cycle, starting at the smallest thread id
  bool monitor_only() const;
  // Identity of the cycle (threads, locks, owners) for "is it the same one".
  std::string key() const;
};

class WaitForGraph {
 public:
  // One edge per waiting thread; a second edge for the same waiter replaces the first.
  void add(WaitEdge edge);
  const std::map<ThreadKey, WaitEdge>& edges() const { return edges_; }
  bool empty() const { return edges_.empty(); }

  // Every cycle once, in ascending order of its first thread. A thread that
  // waits for a lock it owns itself (a self-loop) is not a cycle: HotSpot's
  // own detector ignores those too, and for monitors it cannot happen.
  std::vector<DeadlockCycle> cycles() const;

  // Threads waiting directly on locks each owner holds: owner -> count.
  std::map<ThreadKey, size_t> queued_behind() const;

 private:
  std::map<ThreadKey, WaitEdge> edges_;
};

}  // namespace jvmsight
