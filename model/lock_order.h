#pragma once
// Deadlocks before they happen: lock-order inversions (two orders of the
// same locks, a deadlock waiting for the wrong timing) and threads stuck
// on a lock. What the lock-graph watch finds, described for the reports
// (/deadlocks, stderr, the OTLP log records). Exporter-neutral.
#include <optional>
#include <string>
#include <vector>

#include "model/deadlock.h"

namespace jvmsight {

// A thread that held `from` waited for `to`: it takes `from` before `to`.
struct LockOrder {
  LockId from;
  LockId to;
  ThreadKey thread = 0;
  std::string thread_name;
  // Where it asked for `to`: the first frame outside the lock's own code
  // (java.util.concurrent.locks, Unsafe). Empty class: unknown.
  FrameRecord site;
};

// Orders that form a cycle: each order's `to` is the next one's `from`, and
// the last one's `to` the first one's `from`. Threads following these
// orders at the same time deadlock; they have not yet.
struct LockOrderInversion {
  std::vector<LockOrder> orders;
};

// A thread that has waited for the same lock for at least the stuck
// threshold (monitor entry, or parked on a j.u.c. lock with an owner).
struct StuckThreadReport {
  ThreadKey thread = 0;
  std::string thread_name;
  LockId lock;
  std::optional<ThreadKey> owner;
  double seconds = 0;  // how long it has waited, at least
  // The waiter, then the owner when known, with their stacks (a thread that
  // ended meanwhile is left out).
  std::vector<ThreadRecord> threads;
};

// What /deadlocks shows: the deadlocks that formed, and the potential ones.
struct DeadlocksPage {
  std::vector<DeadlockReport> deadlocks;
  std::vector<LockOrderInversion> inversions;
};

}  // namespace jvmsight
