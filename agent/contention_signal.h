#pragma once
// Monitor contention: the recorder the MonitorContended*/MonitorWait*
// callbacks write, the collector that labels it by lock class, HotSpot's own
// blocked counts (exact totals), duty cycling of the events above a rate
// (contention_sampling), and long contended waits as spans
// (contended_span_min_ms). The deadlock check (DeadlockSignal) reads its
// "blocked anew" flag and blocked counts, and teaches it lock classes.
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <memory>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "agent/event_callbacks.h"
#include "agent/thread_signal.h"
#include "collectors/collector_set.h"
#include "collectors/contention/contended_wait_spans.h"
#include "collectors/contention/contention_duty_cycle.h"
#include "collectors/contention/jvm_blocked_counts.h"
#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/contention/monitor_contention_recorder.h"
#include "collectors/contention/tagged_lock_classes.h"
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

  // Before the agent thread starts: the duty cycle and the long-wait spans.
  void schedule(AgentThread& thread);
  // Agent thread, once.
  void build(JNIEnv* jni, ThreadSignal& threads, SpanQueue& spans, CollectorSet& collectors);

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
  jvmtiEnv* jvmti_;
  const Options& options_;
  const Capabilities& capabilities_;
  const EnabledEvents& events_;
  MonitorContentionRecorder recorder_;
  JvmtiContendedEvents event_switch_;  // what the duty cycle turns on and off
  std::unique_ptr<JvmBlockedCounts> blocked_counts_;
  std::unique_ptr<TaggedLockClasses> tagged_classes_;  // only when objects can be tagged
  std::unique_ptr<MonitorContentionCollector> collector_;
  std::unique_ptr<ContentionDutyCycle> duty_cycle_;  // only when contention_sampling is on
  std::unique_ptr<ContendedWaitSpans> wait_spans_;   // only when contended_span_min_ms is on
};

}  // namespace jvmsight
