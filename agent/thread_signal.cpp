#include "agent/thread_signal.h"

#include "agent/pinning_probes.h"
#include "collectors/background_refresh.h"
#include "collectors/threads/jvmti_thread_source.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

void ThreadSignal::schedule(AgentThread& thread) {
  thread.every(BackgroundRefresh::tick, [this] {
    if (pools_) pools_->refresh();
  });
}

void ThreadSignal::build(JNIEnv* jni, bool change_events, const Capabilities& caps, CollectorSet& collectors) {
  roster_.set_change_events(change_events);
  if (caps.virtual_threads) census_.resolve(jni);
  // Without ThreadStart the platform starts are unknown, and so the virtual ones.
  if (caps.virtual_threads && change_events) virtual_starts_.open(jni, roster_);
  const bool count_starts = virtual_starts_.available() && options_.virtual_thread_starts;
  if (options_.thread_pools > 0) {
    // JDK 8 (to 10) looks thread ids up in a list: ThreadCpuReader.
    pools_ =
        std::make_unique<ThreadPoolCollector>(jvmti_, jni, roster_, mx_bean_, ended_threads_,
                                              static_cast<size_t>(options_.thread_pools), jvmti_major(jvmti_) < 11);
    roster_.set_watcher(pools_.get());
  }
  source_ = std::make_unique<JvmtiThreadSource>(jvmti_, jni, roster_, mx_bean_, census_,
                                                count_starts ? &virtual_starts_ : nullptr, native_states(),
                                                pools_ ? &pools_->tally() : nullptr);
  states_ = std::make_unique<ThreadStateCollector>(*source_);
  collectors.add("threads", *states_);
  if (pools_) collectors.add("thread_pools", *pools_);
  dumps_ = std::make_unique<ThreadInfoReader>(jni, mx_bean_);
  if (caps.virtual_threads) build_pinning(jni, caps, collectors);
}

void ThreadSignal::build_pinning(JNIEnv* jni, const Capabilities& caps, CollectorSet& collectors) {
  if (caps.breakpoints_refused)
    log::info(
        "virtual-thread pinning is not counted: JVM TI grants breakpoints only to an agent loaded at "
        "startup, and to one agent at a time");
  if (caps.breakpoints && set_pinning_probes(jvmti_, jni, pinning_)) collectors.add("pinning", pinning_collector_);
}

bool ThreadSignal::native_states() const {
  const int major = jvmti_major(jvmti_);
  if (major == 0) return false;
  // Before thread-SMR (JDK 10; JDK 8 says JVM TI 1.2) GetThreadState reads the
  // thread's native JavaThread unguarded: one that just ended is freed memory
  // (a SIGSEGV or a hang in libjvm under thread churn). Never on those JVMs.
  if (major < 10) {
    if (options_.native_states == Tristate::on)
      log::warn("native_states=on is ignored on JVM TI ", major, " (JDK < 10)");
    return false;
  }
  if (options_.native_states != Tristate::auto_) return options_.native_states == Tristate::on;
  // JVM TI 21+ (0x3015....) makes GetThreadState wait out virtual-thread transitions.
  return major < 21;
}

}  // namespace jvmsight
