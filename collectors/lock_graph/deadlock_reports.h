#pragma once
// Deadlock reports: a confirmed cycle with its threads described (stacks,
// locks held, locks waited for), for the stderr report at detection and for
// /deadlocks. Agent thread only (ThreadInfoReader calls into the JVM).
#include <vector>

#include "collectors/threads/thread_info_reader.h"
#include "model/lock_order.h"

namespace jvmsight {

class DeadlockReports {
 public:
  explicit DeadlockReports(ThreadInfoReader& threads) : threads_(threads) {}

  DeadlockReport describe(const DeadlockCycle& cycle);
  std::vector<DeadlockReport> describe(const std::vector<DeadlockCycle>& cycles);
  // A stuck thread's and its lock owner's records, with stacks.
  void describe(StuckThreadReport& stuck);

 private:
  ThreadInfoReader& threads_;
};

// Fills each thread's owned j.u.c. locks from the cycle (a ThreadMXBean dump
// would need a heap walk to know them).
void add_cycle_synchronizers(DeadlockReport& report);

}  // namespace jvmsight
