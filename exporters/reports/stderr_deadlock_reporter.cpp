#include "exporters/reports/stderr_deadlock_reporter.h"

#include "common/log.h"
#include "exporters/reports/lock_order_report.h"
#include "exporters/reports/thread_report.h"

namespace jvmsight {

void StderrDeadlockReporter::deadlock_confirmed(const DeadlockReport& report) {
  log::error("deadlock detected (", report.cycle.edges.size(), " threads",
             report.cycle.monitor_only() ? ", monitors only" : "", "):\n", deadlocks_text({report}));
}

void StderrDeadlockReporter::inversion_found(const LockOrderInversion& inversion) {
  log::warn("potential deadlock: locks taken in opposite orders (", inversion.orders.size(), " locks):\n",
            inversion_text(inversion));
}

void StderrDeadlockReporter::thread_stuck(const StuckThreadReport& stuck) {
  log::warn("thread stuck on a lock: ", stuck_text(stuck));
}

}  // namespace jvmsight
