#include "agent/deadlock_signal.h"

#include <algorithm>
#include <thread>

#include "collectors/background_refresh.h"
#include "collectors/lock_graph/jvmti_lock_graph_source.h"
#include "collectors/lock_graph/mx_bean_lock_graph_source.h"
#include "common/log.h"

namespace jvmsight {

void DeadlockSignal::schedule(AgentThread& thread, ContentionSignal& contention) {
  thread.every(BackgroundRefresh::tick, [this] {
    if (queues_) queues_->refresh();
  });
  if (options_.deadlock_check_ms <= 0) return;
  auto interval = std::chrono::milliseconds(options_.deadlock_check_ms);
  if (!capabilities_.cheap_deadlock_check()) interval = std::max(interval, fallback_check_interval);
  // The first check at once: until one succeeds the deadlock gauges are
  // left out (never a 0 nobody measured).
  thread.every(
      interval,
      [this, &contention] {
        contention.note_unseen_blocking();
        if (detector_) detector_->check();
      },
      std::chrono::milliseconds{0});
}

void DeadlockSignal::build(JNIEnv* jni, ThreadSignal& threads, ContentionSignal& contention, CollectorSet& collectors) {
  reports_ = std::make_unique<DeadlockReports>(threads.dumps());
  build_source(jni, threads, contention);
  queues_ = std::make_unique<LockQueueCollector>(*source_, static_cast<size_t>(options_.lock_classes));
  collectors.add("lock_queue", *queues_);
  detector_ = std::make_unique<DeadlockDetector>(
      *source_, [this](const DeadlockCycle& cycle) { confirmed(cycle); }, confirm_delay,
      [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); });
  detector_->set_class_sink(contention.lock_classes());
  collectors.add("deadlocks", *detector_);
}

void DeadlockSignal::build_source(JNIEnv* jni, ThreadSignal& threads, ContentionSignal& contention) {
  if (capabilities_.cheap_deadlock_check()) {
    auto source = std::make_unique<JvmtiLockGraphSource>(
        jvmti_, jni, threads.roster(), capabilities_.monitor_info, contention.blocked_anew(),
        contention.blocked_counts(), capabilities_.virtual_threads ? &threads.virtual_census() : nullptr);
    if (source->ready()) {
      JvmtiLockGraphSource* jvmti_source = source.get();
      // Reports find virtual threads, which ThreadMXBean does not know, by id.
      threads.dumps().set_thread_lookup([jvmti_source](ThreadKey id) { return jvmti_source->virtual_thread(id); });
      status_gather_ = jvmti_source->status_gather();
      source_ = std::move(source);
      return;
    }
  }
  source_ = std::make_unique<MxBeanLockGraphSource>(threads.dumps());
  if (options_.deadlock_check_ms > 0)
    log::info(
        "deadlock check: JVM TI contended-monitor capabilities are granted only at startup; using "
        "ThreadMXBean.findDeadlockedThreads every ",
        std::max<long long>(options_.deadlock_check_ms, fallback_check_interval.count()),
        " ms instead (stops the world briefly; no lock holder metrics)");
}

void DeadlockSignal::confirmed(const DeadlockCycle& cycle) {
  const DeadlockReport report = reports_->describe(cycle);
  for (DeadlockSink* sink : sinks_) sink->deadlock_confirmed(report);
}

std::vector<DeadlockReport> DeadlockSignal::current_reports() {
  if (!detector_) return {};
  return reports_->describe(detector_->current());
}

}  // namespace jvmsight
