#pragma once
// GC pauses: the recorder the GarbageCollectionStart/Finish callbacks write,
// drained on the agent thread into the histograms, the /gc report and the
// span queue; collector, action and cause from GC notifications.
#include <jni.h>

#include <chrono>
#include <memory>

#include "agent/agent_thread.h"
#include "collectors/collector_set.h"
#include "collectors/gc/gc_collector.h"
#include "collectors/gc/gc_pause_recorder.h"
#include "model/gc_report.h"
#include "model/span.h"
#include "options/options.h"

namespace jvmsight {

class GcSignal {
 public:
  // Drained this often: the buffers stay small and recent pauses reach the
  // histogram and span queue within a fraction of a second.
  static constexpr std::chrono::milliseconds poll_interval{250};

  explicit GcSignal(const Options& options) : options_(options) {}

  // What the event callbacks feed, from OnLoad on.
  GcPauseRecorder& pauses() { return pauses_; }

  // Before the agent thread starts.
  void schedule(AgentThread& thread);
  // Agent thread, once. Pauses longer than the gc_span_min_ms option go to spans.
  void build(JNIEnv* jni, SpanQueue& spans, CollectorSet& collectors);
  // /gc, agent thread.
  GcReport report() { return collector_ ? collector_->report() : GcReport{}; }

 private:
  const Options& options_;
  GcPauseRecorder pauses_;
  std::unique_ptr<GcCollector> collector_;
};

}  // namespace jvmsight
