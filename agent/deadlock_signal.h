#pragma once
// Locks and deadlocks: the lock-graph source (JVM TI when the startup
// capabilities were granted, else ThreadMXBean), the scrape-time lock queue
// metrics, and the background deadlock check. Each newly confirmed deadlock
// is described once (DeadlockReports) and handed to every DeadlockSink;
// /deadlocks asks for the current ones. With the JVM TI source the check
// also shows its waits to LockWaitWatch: lock-order inversions and threads
// stuck on a lock, handed to the same sinks after each check.
#include <jni.h>
#include <jvmti.h>

#include <chrono>
#include <memory>
#include <vector>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "agent/contention_signal.h"
#include "agent/thread_signal.h"
#include "collectors/collector_set.h"
#include "collectors/lock_graph/deadlock_detector.h"
#include "collectors/lock_graph/deadlock_reports.h"
#include "collectors/lock_graph/lock_graph_source.h"
#include "collectors/lock_graph/lock_queue_collector.h"
#include "collectors/lock_graph/lock_wait_watch.h"
#include "collectors/lock_graph/parked_thread_scan.h"
#include "collectors/threads/thread_roster.h"
#include "model/deadlock_sink.h"
#include "options/options.h"

namespace jvmsight {

class DeadlockSignal {
 public:
  // A candidate cycle is looked at again this much later before it is reported.
  static constexpr std::chrono::milliseconds confirm_delay{100};
  // The ThreadMXBean fallback stops the world: never check more often than this.
  static constexpr std::chrono::milliseconds fallback_check_interval{2000};

  DeadlockSignal(jvmtiEnv* jvmti, const Options& options, const Capabilities& capabilities)
      : jvmti_(jvmti), options_(options), capabilities_(capabilities) {}

  // Before the agent thread starts: where confirmed deadlocks go.
  void add_sink(DeadlockSink& sink) { sinks_.push_back(&sink); }
  // Before the agent thread starts: lock queue refreshes and the check.
  void schedule(AgentThread& thread, ContentionSignal& contention);
  // Agent thread, once, after the threads and contention signals.
  void build(JNIEnv* jni, ThreadSignal& threads, ContentionSignal& contention, CollectorSet& collectors);
  // /deadlocks: the confirmed deadlocks as of the last check, described now,
  // and the known lock-order inversions.
  DeadlocksPage current_page();
  // After build: the JVM TI source's Java pass, which reads every thread's
  // status word in one call (null with the ThreadMXBean fallback, or when
  // the Java pass cannot run here).
  ThreadStatusGather* status_gather() { return status_gather_; }
  // After build: the same Java pass's scan of parked threads, for the block
  // profile (null where the pass or its queue reads cannot run).
  ParkedThreadScan* parked_scan() { return parked_scan_; }

 private:
  void build_source(JNIEnv* jni, ThreadSignal& threads, ContentionSignal& contention);
  void confirmed(const DeadlockCycle& cycle);
  // After a check: new inversions and newly stuck threads to the sinks.
  void report_warnings();

  jvmtiEnv* jvmti_;
  const Options& options_;
  const Capabilities& capabilities_;
  std::vector<DeadlockSink*> sinks_;
  std::unique_ptr<LockGraphSource> source_;
  ThreadStatusGather* status_gather_ = nullptr;  // source_'s, when it has one
  ParkedThreadScan* parked_scan_ = nullptr;      // source_'s, when it has one
  std::unique_ptr<LockQueueCollector> queues_;
  std::unique_ptr<DeadlockReports> reports_;
  std::unique_ptr<DeadlockDetector> detector_;
  std::unique_ptr<LockWaitWatch> watch_;  // null: the ThreadMXBean fallback, or no check
};

}  // namespace jvmsight
