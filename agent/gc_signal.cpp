#include "agent/gc_signal.h"

#include <optional>

namespace jvmsight {

void GcSignal::schedule(AgentThread& thread) {
  thread.every(poll_interval, [this] {
    if (collector_) collector_->poll();
  });
}

void GcSignal::build(JNIEnv* jni, SpanQueue& spans, CollectorSet& collectors) {
  std::optional<bool> notifications;
  if (options_.gc_notifications != Tristate::auto_) notifications = options_.gc_notifications == Tristate::on;
  collector_ =
      std::make_unique<GcCollector>(jni, pauses_, spans, options_.gc_span_min_ns, notifications, options_.gc_cause);
  collector_->poll();  // installs the GC notification listener before the first pause we time
  collectors.add("gc", *collector_);
}

}  // namespace jvmsight
