#pragma once
// Deadlocks before they happen, from the background deadlock check's own
// view of who waits for which lock (ScanObserver): threads stuck on a lock
// (WaitEpisodes, with the JVM's wait counts to tell one long wait from many
// short ones) and lock-order inversions (LockOrderProbe). What is new goes
// to the deadlock signal after each check (take_*), which describes and
// reports it; the gauges are computed once per check, so a scrape only
// copies them. Agent thread only.
#include <jni.h>
#include <jvmti.h>

#include <chrono>
#include <utility>
#include <vector>

#include "collectors/collector.h"
#include "collectors/lock_graph/blocked_progress.h"
#include "collectors/lock_graph/jvm_lock_lookup.h"
#include "collectors/lock_graph/lock_order_probe.h"
#include "collectors/lock_graph/scan_observer.h"
#include "collectors/lock_graph/stuck_reports.h"
#include "collectors/lock_graph/time_budget.h"
#include "collectors/lock_graph/wait_episodes.h"
#include "model/lock_order.h"

namespace jvmsight {

class LockWaitWatch : public ScanObserver, public Collector {
 public:
  using Clock = std::chrono::steady_clock;
  // Collected locks leave the graph at most this often (a JNI call per lock).
  static constexpr std::chrono::seconds sweep_interval{2};
  // Wait counts: getThreadInfo(ids, 0) costs about 1 us a thread on JDK 17,
  // and on JDK 8 up to 2 ms a thread at 10,000 threads (it looks each id up
  // in the whole thread list): at most 0.2% of the wall clock, with a 50 ms
  // burst; a batch at most twice the last one, so a cost that grew with
  // the thread count is seen before it is paid for many.
  static constexpr int count_spacing = 500;
  static constexpr std::chrono::milliseconds count_burst{50};

  // counts: the JVM's per-thread wait counts (null: platform threads are
  // never found stuck). roster: the thread layout the lookups use.
  LockWaitWatch(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, BlockedCountReader* counts,
                std::chrono::milliseconds stuck_threshold);
  bool ready() const { return ready_; }

  size_t observed(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks,
                  WaitCoverage coverage) override;
  // jvmsight_lock_order_*, jvmsight_threads_stuck*: only once a check ran.
  void collect(MetricFamilies& out) override;

  // New since the last call: inversions; threads newly stuck to describe
  // (threads left empty: the signal describes them); and per lock, how many
  // more got stuck that are only counted (StuckReports).
  std::vector<LockOrderInversion> take_inversions() { return probe_.take_found(); }
  std::vector<StuckThreadReport> take_stuck() { return std::exchange(stuck_, {}); }
  std::vector<std::pair<LockId, size_t>> take_stuck_counted() { return std::exchange(stuck_counted_, {}); }
  // The potential deadlocks known now, for /deadlocks.
  std::vector<LockOrderInversion> inversions() const { return probe_.graph().inversions(); }

 private:
  void count_waits(Clock::time_point now);
  void note_stuck(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks, Clock::time_point now);

  JvmLockLookup lookup_;
  BlockedCountReader* counts_;
  bool ready_ = false;
  WaitEpisodes episodes_;
  LockOrderProbe probe_;
  StuckReports reports_;
  std::vector<StuckThreadReport> stuck_;
  std::vector<std::pair<LockId, size_t>> stuck_counted_;
  Clock::time_point next_sweep_{};
  TimeBudget count_budget_{count_spacing, count_burst};
  Clock::duration per_count_{};  // what reading one count last cost
  size_t last_batch_ = 4;
  bool observed_once_ = false;
  // The gauges, as of the last check.
  size_t stuck_monitor_ = 0, stuck_juc_ = 0;
  double stuck_max_seconds_ = 0;
};

}  // namespace jvmsight
