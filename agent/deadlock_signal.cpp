#include "agent/deadlock_signal.h"

#include <algorithm>
#include <map>
#include <string>
#include <thread>

#include "collectors/background_refresh.h"
#include "collectors/lock_graph/jvmti_lock_graph_source.h"
#include "collectors/lock_graph/mx_bean_lock_graph_source.h"
#include "common/log.h"
#include "exporters/reports/thread_report.h"

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
        report_warnings();
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
  if (watch_) collectors.add("lock_watch", *watch_);
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
      parked_scan_ = jvmti_source->parked_scan();
      if (options_.deadlock_check_ms > 0) {
        watch_ = std::make_unique<LockWaitWatch>(jvmti_, jni, threads.roster(), contention.blocked_counts(),
                                                 std::chrono::milliseconds(options_.stuck_threshold_ms));
        if (watch_->ready())
          source->set_observer(watch_.get());
        else
          watch_.reset();
      }
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

DeadlocksPage DeadlockSignal::current_page() {
  DeadlocksPage page;
  if (detector_) page.deadlocks = reports_->describe(detector_->current());
  if (watch_) page.inversions = watch_->inversions();
  return page;
}

// A deadlock that formed is reported as such: its inversion, found in the
// same check, is not announced a second time as a potential one.
void DeadlockSignal::report_warnings() {
  if (!watch_) return;
  std::vector<int32_t> deadlocked;
  if (detector_)
    for (const auto& c : detector_->current())
      for (const auto& e : c.edges) deadlocked.push_back(e.lock.identity_hash);
  for (const LockOrderInversion& inversion : watch_->take_inversions()) {
    const bool formed = std::all_of(inversion.orders.begin(), inversion.orders.end(), [&](const LockOrder& o) {
      return std::find(deadlocked.begin(), deadlocked.end(), o.to.identity_hash) != deadlocked.end();
    });
    if (!formed)
      for (DeadlockSink* sink : sinks_) sink->inversion_found(inversion);
  }
  std::map<int32_t, std::string> classes;  // of the locks described: the others on them are counted
  for (StuckThreadReport& stuck : watch_->take_stuck()) {
    reports_->describe(stuck);
    classes[stuck.lock.identity_hash] = stuck.lock.class_name;
    for (DeadlockSink* sink : sinks_) sink->thread_stuck(stuck);
  }
  for (auto& [lock, count] : watch_->take_stuck_counted()) {
    if (lock.class_name.empty() && classes.count(lock.identity_hash)) lock.class_name = classes[lock.identity_hash];
    log::warn(count, " more threads stuck on ", lock.kind == LockKind::monitor ? "monitor" : "ownable synchronizer",
              " <", hex(lock.identity_hash), "> (a ", lock.class_name.empty() ? "?" : lock.class_name,
              "); those and any that follow on it for 10 minutes are counted in jvmsight_threads_stuck, "
              "not described one by one (/threads has their stacks)");
  }
}

}  // namespace jvmsight
