#include "collectors/contention/contention_duty_cycle.h"

#include <algorithm>

#include "common/clock.h"
#include "common/log.h"

namespace jvmsight {

void ContentionDutyCycle::tick(Clock::time_point now) {
  if (since_ == Clock::time_point{}) {  // the first tick starts the clocks
    since_ = now;
    churn_shift(now);
    return;
  }
  ++slice_;
  const double seconds = std::chrono::duration<double>(now - since_).count();
  if (shift_ == 0) {
    if (slice_ < rate_slices) return;
    uint64_t seen = 0;
    if (collector_) {
      collector_->absorb(now);
      seen = collector_->take_counted();
    }
    slice_ = 0;
    since_ = now;
    const uint32_t churn = churn_shift(now);
    shift_ = std::max(sampler_.next_shift(0, seen, seconds), churn);
    if (shift_ == 0) return;
    // The events stay on for this first slice of the first cycle.
    if (collector_) {
      collector_->begin_scaling(now);
      collector_->take_counted();
    }
    recorder_.set_duty_shift(shift_);
    others_cycled_ = churn > 0;
    // Waits and pinnings from here stand for 2^k: only those begun from now.
    if (others_cycled_) recorder_.start_others(monotonic_ns(), shift_);
    return;
  }
  if (slice_ == 1 && on_) switch_events(false);
  if (slice_ < (1u << shift_)) return;
  // A cycle ends: the JVM's entries over it set the next shift.
  uint64_t entries = 0;
  if (collector_) {
    collector_->flush_scaled(now);
    entries = collector_->take_counted();
  }
  const uint32_t churn = churn_shift(now);
  shift_ = std::max(sampler_.next_shift(shift_, entries, seconds), churn);
  recorder_.set_duty_shift(shift_);
  if (shift_ == 0 && collector_) collector_->end_scaling(now);
  others_cycled_ = churn > 0;
  slice_ = 0;
  since_ = now;
  switch_events(true);
}

void ContentionDutyCycle::switch_events(bool on) {
  // Before any Enter, Wait or pinning of the new phase.
  if (on) {
    const uint64_t now_ns = monotonic_ns();
    recorder_.start_phase(now_ns);
    if (others_off_ || others_cycled_) recorder_.start_others(now_ns, others_cycled_ ? shift_ : 0);
  }
  // The others go with the contended events only while cycled, and come
  // back on with them whenever they were off.
  const bool others = on ? others_off_ : others_cycled_;
  if (!events_.set_contended_events(on) || (others && !events_.set_other_events(on))) {
    if (!refused_) log::warn("cannot turn the monitor contention events ", on ? "on" : "off", " (duty cycling)");
    refused_ = true;
    return;
  }
  on_ = on;
  if (others) others_off_ = !on;
  if (!on) blind_ = true;
}

bool ContentionDutyCycle::blind_since_last_asked() {
  if (!collector_) return false;  // no contended events to miss blocking with
  bool blind = blind_ || !on_;
  blind_ = false;
  return blind;
}

}  // namespace jvmsight
