#pragma once
// Monitor contention: the recorder the MonitorContended*/MonitorWait*
// callbacks write, the collector that labels it by lock class, HotSpot's own
// blocked counts (exact totals), duty cycling of the events above a rate
// (contention_sampling), and long contended waits as spans
// (contended_span_min_ms); and the contention profiles: the mutex profile
// from the monitor events, the block profile from a sampler of threads
// parked on j.u.c. synchronizers. The deadlock check (DeadlockSignal) reads
// its "blocked anew" flag and blocked counts, teaches it lock classes, and
// lends the block profile its Java pass.
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <memory>
#include <optional>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "agent/event_callbacks.h"
#include "agent/thread_signal.h"
#include "collectors/collector_set.h"
#include "collectors/contention/block_profile.h"
#include "collectors/contention/contended_wait_spans.h"
#include "collectors/contention/contention_duty_cycle.h"
#include "collectors/contention/jvm_blocked_counts.h"
#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/contention/monitor_contention_recorder.h"
#include "collectors/contention/monitor_profile.h"
#include "collectors/contention/monitor_stack_recorder.h"
#include "collectors/contention/profile_collector.h"
#include "collectors/contention/tagged_lock_classes.h"
#include "collectors/lock_graph/parked_thread_scan.h"
#include "model/span.h"
#include "options/options.h"

namespace jvmsight {

class ContentionSignal {
 public:
  // events: filled in when the callbacks are installed, read from build on.
  ContentionSignal(jvmtiEnv* jvmti, const Options& options, const Capabilities& capabilities,
                   const EnabledEvents& events);

  // What the event callbacks feed, from OnLoad on.
  MonitorContentionRecorder& recorder() { return recorder_; }
  // The mutex profile's stacks and the JVM TI environment whose thread-local
  // word holds a waiting thread's stack id; null when profiles are off or
  // no second environment could be had (one warning). OnLoad, before the
  // callbacks are installed.
  void open_profile_env(JavaVM* vm);
  MonitorStackRecorder* monitor_stacks() { return profile_env_ ? monitor_stacks_.get() : nullptr; }
  // Whether /debug/pprof/mutex can have samples: stacks, and the monitor
  // events (granted only at OnLoad: an attached agent has none).
  bool serves_mutex_profile() { return monitor_stacks() != nullptr && events_.monitor; }
  jvmtiEnv* profile_env() { return profile_env_; }
  // Whether /debug/pprof/block can have samples: the lock scan's Java pass
  // runs where the cheap deadlock check does (granted only at OnLoad).
  bool serves_block_profile() const {
    return options_.profiles != Details::off && capabilities_.cheap_deadlock_check();
  }
  // The profiles' totals since the agent started; nullopt without that
  // profile. Agent thread only.
  std::optional<ContentionProfile> mutex_snapshot();
  std::optional<ContentionProfile> block_snapshot();

  // Before the agent thread starts: the duty cycle and the long-wait spans.
  void schedule(AgentThread& thread);
  // Agent thread, once.
  void build(JNIEnv* jni, ThreadSignal& threads, SpanQueue& spans, CollectorSet& collectors);
  // Agent thread, once, after the deadlock signal's build: the block profile
  // on its Java pass (null: none, one info line), and the profiles' families.
  void build_profiles(JNIEnv* jni, ThreadSignal& threads, ParkedThreadScan* parked, CollectorSet& collectors);

  // For the deadlock check, after build. Set by every MonitorContendedEnter;
  // null without monitor events (nobody can tell).
  std::atomic<bool>* blocked_anew() { return events_.monitor ? &recorder_.blocked_anew() : nullptr; }
  JvmBlockedCounts* blocked_counts() { return blocked_counts_.get(); }
  // Before each check: while the events were off, a thread may have blocked
  // anew unseen, so the check must not trust the flag's silence.
  void note_unseen_blocking();
  // Where the deadlock check hands the lock classes it saw, after build.
  LockClassSink& lock_classes() { return *collector_; }

 private:
  // JDK 21 only: 22 makes its per-thread state lazily (VirtualThreadChurn).
  bool may_cycle_for_churn() const;

  jvmtiEnv* jvmti_;
  const Options& options_;
  const Capabilities& capabilities_;
  const EnabledEvents& events_;
  MonitorContentionRecorder recorder_;
  JvmtiContendedEvents event_switch_;  // what the duty cycle turns on and off
  std::unique_ptr<JvmBlockedCounts> blocked_counts_;
  std::unique_ptr<TaggedLockClasses> tagged_classes_;  // only when objects can be tagged
  std::unique_ptr<MonitorContentionCollector> collector_;
  std::unique_ptr<VirtualThreadChurn> churn_;             // JDK 21 with virtual_thread_churn on
  std::unique_ptr<ContentionDutyCycle> duty_cycle_;       // contention_sampling on, or churn_
  std::unique_ptr<ContendedWaitSpans> wait_spans_;        // only when contended_span_min_ms is on
  std::unique_ptr<MonitorStackRecorder> monitor_stacks_;  // only when profiles are on
  jvmtiEnv* profile_env_ = nullptr;
  std::unique_ptr<MonitorProfile> mutex_profile_;
  std::unique_ptr<BlockProfile> block_profile_;
  std::unique_ptr<ProfileCollector> profile_collector_;
};

}  // namespace jvmsight
