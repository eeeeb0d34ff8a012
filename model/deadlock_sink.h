#pragma once
// Where a confirmed deadlock goes, and the warnings before one forms (a
// lock-order inversion, a thread stuck on a lock). The deadlock check
// confirms a cycle once and describes it (DeadlockReports: threads, stacks,
// locks); every exporter that tells someone about it implements this seam:
// the stderr report (exporters/reports/stderr_deadlock_reporter.h) and the
// OTLP log record (agent/otlp_plugin_loader.h). The /deadlocks endpoint
// asks for the current page instead (ReportSource::deadlocks, answered by
// DeadlockSignal::current_page).
#include "model/lock_order.h"

namespace jvmsight {

class DeadlockSink {
 public:
  virtual ~DeadlockSink() = default;
  // Once per newly confirmed deadlock, on the agent thread. Must not wait:
  // the check runs on the thread every scrape waits for.
  virtual void deadlock_confirmed(const DeadlockReport& report) = 0;
  // Once per newly found lock-order inversion (a potential deadlock).
  virtual void inversion_found(const LockOrderInversion& inversion) { (void)inversion; }
  // Once per thread newly stuck on a lock, described (threads, stacks).
  virtual void thread_stuck(const StuckThreadReport& stuck) { (void)stuck; }
};

}  // namespace jvmsight
