#pragma once
// The deadlock vocabulary shared by the lock collectors and the reports:
// who waits for which lock, owned by whom, and a confirmed cycle of such
// waits with its threads described.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/thread_record.h"

namespace jvmsight {

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

// One confirmed deadlock with its threads described, in cycle order.
struct DeadlockReport {
  DeadlockCycle cycle;
  std::vector<ThreadRecord> threads;  // may miss a thread that ended (it cannot, while deadlocked)
};

}  // namespace jvmsight
