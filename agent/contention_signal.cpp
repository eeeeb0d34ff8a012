#include "agent/contention_signal.h"

namespace jvmsight {

ContentionSignal::ContentionSignal(jvmtiEnv* jvmti, const Options& options, const Capabilities& capabilities,
                                   const EnabledEvents& events)
    : jvmti_(jvmti), options_(options), capabilities_(capabilities), events_(events), event_switch_(jvmti) {
  recorder_.set_long_wait_ns(static_cast<uint64_t>(options_.contended_span_min_ns));
}

void ContentionSignal::schedule(AgentThread& thread) {
  if (!events_.monitor) return;
  thread.every(ContentionDutyCycle::slice, [this] {
    if (duty_cycle_) duty_cycle_->tick();
    if (wait_spans_) wait_spans_->drain();
  });
}

void ContentionSignal::build(JNIEnv* jni, ThreadSignal& threads, SpanQueue& spans, CollectorSet& collectors) {
  blocked_counts_ = std::make_unique<JvmBlockedCounts>(jni, threads.mx_bean());
  if (capabilities_.tag_objects) tagged_classes_ = std::make_unique<TaggedLockClasses>(jvmti_, jni);
  collector_ =
      std::make_unique<MonitorContentionCollector>(recorder_, static_cast<size_t>(options_.lock_classes),
                                                   events_.monitor, tagged_classes_.get(), blocked_counts_.get());
  collectors.add("contention", *collector_);
  if (events_.monitor && options_.contention_sampling > 0) {
    duty_cycle_ = std::make_unique<ContentionDutyCycle>(
        recorder_, *collector_, ContentionSampler(static_cast<uint32_t>(options_.contention_sampling)), event_switch_);
  }
  if (events_.monitor && options_.contended_span_min_ns > 0) {
    wait_spans_ =
        std::make_unique<ContendedWaitSpans>(jvmti_, jni, recorder_.long_waits(), *collector_, threads.roster(), spans);
  }
}

void ContentionSignal::note_unseen_blocking() {
  if (duty_cycle_ && duty_cycle_->blind_since_last_asked()) recorder_.note_blocking();
}

}  // namespace jvmsight
