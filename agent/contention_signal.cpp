#include "agent/contention_signal.h"

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

ContentionSignal::ContentionSignal(jvmtiEnv* jvmti, const Options& options, const Capabilities& capabilities,
                                   const EnabledEvents& events)
    : jvmti_(jvmti), options_(options), capabilities_(capabilities), events_(events), event_switch_(jvmti) {
  recorder_.set_long_wait_ns(static_cast<uint64_t>(options_.contended_span_min_ns));
}

void ContentionSignal::open_profile_env(JavaVM* vm) {
  if (options_.profiles == Details::off || !options_.contention) return;
  if (vm->GetEnv(reinterpret_cast<void**>(&profile_env_), JVMTI_VERSION_1_2) != JNI_OK) {
    profile_env_ = nullptr;
    log::warn("no second JVM TI environment for the contention profiles: /debug/pprof/mutex is not served");
    return;
  }
  monitor_stacks_ = std::make_unique<MonitorStackRecorder>(static_cast<uint64_t>(options_.profile_rate_ns));
}

bool ContentionSignal::may_cycle_for_churn() const {
  return jvmti_major(jvmti_) == 21 && options_.virtual_thread_churn > 0;
}

void ContentionSignal::schedule(AgentThread& thread) {
  // The block profile's sampler sets its own pace (BlockProfile, ParkPacing).
  if (serves_block_profile()) {
    thread.paced(
        [this]() -> std::chrono::nanoseconds {
          if (!block_profile_) return std::chrono::minutes(1);  // refused at build: nothing to sample
          return block_profile_->sample();
        },
        std::chrono::milliseconds(100));
  }
  if (!events_.monitor && !may_cycle_for_churn()) return;
  thread.every(ContentionDutyCycle::slice, [this] {
    if (duty_cycle_) duty_cycle_->tick();
    if (wait_spans_) wait_spans_->drain();
    // Named within a slice of a stack's first wait: before its classes can unload.
    if (mutex_profile_) mutex_profile_->name_new();
    if (monitor_stacks_) monitor_stacks_->pace(!duty_cycle_ || duty_cycle_->events_on(), recorder_.duty_shift());
  });
}

void ContentionSignal::build(JNIEnv* jni, ThreadSignal& threads, SpanQueue& spans, CollectorSet& collectors) {
  blocked_counts_ = std::make_unique<JvmBlockedCounts>(jni, threads.mx_bean());
  if (capabilities_.tag_objects) tagged_classes_ = std::make_unique<TaggedLockClasses>(jvmti_, jni);
  collector_ =
      std::make_unique<MonitorContentionCollector>(recorder_, static_cast<size_t>(options_.lock_classes),
                                                   events_.monitor, tagged_classes_.get(), blocked_counts_.get());
  collectors.add("contention", *collector_);
  // contention_sampling=off keeps the events on, churn or not (as it says).
  const bool sampled = events_.monitor && options_.contention_sampling > 0;
  VirtualThreadStarts* starts = threads.virtual_starts();
  const bool pinning = threads.pinning().supported();
  if (may_cycle_for_churn() && starts != nullptr && (sampled || (!events_.monitor && pinning))) {
    event_switch_.set_enabled(events_.monitor, pinning);
    churn_ = std::make_unique<VirtualThreadChurn>(static_cast<uint32_t>(options_.virtual_thread_churn),
                                                  [starts] { return starts->started(); });
  }
  if (sampled || churn_) {
    duty_cycle_ = std::make_unique<ContentionDutyCycle>(
        recorder_, events_.monitor ? collector_.get() : nullptr,
        ContentionSampler(sampled ? static_cast<uint32_t>(options_.contention_sampling) : 0), event_switch_,
        churn_.get());
  }
  if (events_.monitor && monitor_stacks())
    mutex_profile_ = std::make_unique<MonitorProfile>(jvmti_, jni, *monitor_stacks_);
  if (events_.monitor && options_.contended_span_min_ns > 0) {
    wait_spans_ =
        std::make_unique<ContendedWaitSpans>(jvmti_, jni, recorder_.long_waits(), *collector_, threads.roster(), spans);
  }
}

void ContentionSignal::build_profiles(JNIEnv* jni, ThreadSignal& threads, ParkedThreadScan* parked,
                                      CollectorSet& collectors) {
  if (serves_block_profile() && parked == nullptr)
    log::info("the lock scan's Java pass does not run here: /debug/pprof/block has nothing to serve");
  if (serves_block_profile() && parked != nullptr) {
    // The census's layout is the scan's: where it is unknown, so are the threads to walk.
    const bool virtual_threads = capabilities_.virtual_threads && threads.virtual_census().available();
    block_profile_ = std::make_unique<BlockProfile>(jvmti_, jni, threads.roster(), *parked, virtual_threads);
  }
  if (!mutex_profile_ && !block_profile_) return;
  profile_collector_ = std::make_unique<ProfileCollector>(mutex_profile_.get(), block_profile_.get());
  collectors.add("profiles", *profile_collector_);
}

std::optional<ContentionProfile> ContentionSignal::mutex_snapshot() {
  if (!mutex_profile_) return std::nullopt;
  return mutex_profile_->snapshot();
}

std::optional<ContentionProfile> ContentionSignal::block_snapshot() {
  if (!block_profile_) return std::nullopt;
  return block_profile_->snapshot();
}

void ContentionSignal::note_unseen_blocking() {
  if (duty_cycle_ && duty_cycle_->blind_since_last_asked()) recorder_.note_blocking();
}

}  // namespace jvmsight
