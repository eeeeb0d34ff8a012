#include "exporters/reports/stderr_deadlock_reporter.h"

#include "common/log.h"
#include "exporters/reports/thread_report.h"

namespace jvmsight {

void StderrDeadlockReporter::deadlock_confirmed(const DeadlockReport& report) {
  log::error("deadlock detected (", report.cycle.edges.size(), " threads",
             report.cycle.monitor_only() ? ", monitors only" : "", "):\n", deadlocks_text({report}));
}

}  // namespace jvmsight
