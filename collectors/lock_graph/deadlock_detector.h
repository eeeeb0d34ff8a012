#pragma once
// The background deadlock check: scans the wait-for graph on the agent
// thread, and reports a cycle only once a second scan, taken a little later,
// finds the very same cycle (same threads, locks and owners). A snapshot
// taken thread by thread is racy; a cycle that persists is not a race.
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "collectors/collector.h"
#include "collectors/lock_graph/lock_class_sink.h"
#include "collectors/lock_graph/lock_graph_source.h"

namespace jvmsight {

class DeadlockDetector : public Collector {
 public:
  using Clock = std::chrono::steady_clock;
  // Called once per newly confirmed cycle, on the agent thread.
  using Reporter = std::function<void(const DeadlockCycle&)>;
  using Sleeper = std::function<void(std::chrono::milliseconds)>;

  DeadlockDetector(LockGraphSource& source, Reporter reporter, std::chrono::milliseconds confirm_delay,
                   Sleeper sleeper);
  // Where the monitor classes each scan meets go (contention labels).
  void set_class_sink(LockClassSink& sink) { class_sink_ = &sink; }

  // One background check. Cheap when no thread is blocked or parked on a lock.
  void check();

  // jvm_threads_deadlocked, jvm_threads_deadlocked_monitor, jvmsight_deadlock_cycles, check cost.
  void collect(MetricFamilies& out) override;

  // Confirmed cycles as of the last check.
  const std::vector<DeadlockCycle>& current() const { return confirmed_; }
  uint64_t checks() const { return checks_; }

 private:
  std::optional<std::vector<DeadlockCycle>> cycles_now();
  void run_check(Clock::time_point start, double cpu_start);
  // The deadlock gauges only while checks succeed: a check that is off, not
  // run yet or failing leaves them out (absent() alerts see it), never 0.
  bool gauges_known() const { return checks_ > 0 && failures_in_a_row_ < max_failures_shown_as_known; }
  static constexpr uint64_t max_failures_shown_as_known = 3;

  LockGraphSource& source_;
  Reporter reporter_;
  std::chrono::milliseconds confirm_delay_;
  Sleeper sleeper_;
  LockClassSink* class_sink_ = nullptr;
  std::vector<DeadlockCycle> confirmed_;
  LockScan last_scan_;              // of the last successful scan: graph and list order
  double last_success_unix_s_ = 0;  // wall clock of the last check that succeeded
  std::set<std::string> reported_;  // keys of cycles already logged: each deadlock once
  uint64_t checks_ = 0;
  uint64_t failed_checks_ = 0;
  uint64_t thread_stops_ = 0;
  uint64_t failures_in_a_row_ = 0;
  bool said_unavailable_ = false;
  double total_seconds_ = 0;
  double total_cpu_seconds_ = 0;
  double last_check_seconds_ = 0;
  double max_check_seconds_ = 0;
  std::vector<double> recent_seconds_;      // ring of the last recent_checks durations
  std::vector<double> recent_cpu_seconds_;  // the agent thread's CPU time for the same checks
  size_t recent_next_ = 0;
  static constexpr size_t recent_checks = 32;
};

}  // namespace jvmsight
