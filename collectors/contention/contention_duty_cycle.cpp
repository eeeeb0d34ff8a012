#include "collectors/contention/contention_duty_cycle.h"

#include "common/clock.h"
#include "common/log.h"

namespace jvmsight {

void ContentionDutyCycle::tick(Clock::time_point now) {
  if (since_ == Clock::time_point{}) {  // the first tick starts the clock
    since_ = now;
    return;
  }
  ++slice_;
  const double seconds = std::chrono::duration<double>(now - since_).count();
  if (shift_ == 0) {
    if (slice_ < rate_slices) return;
    collector_.absorb(now);
    uint64_t seen = collector_.take_counted();
    slice_ = 0;
    since_ = now;
    shift_ = sampler_.next_shift(0, seen, seconds);
    if (shift_ == 0) return;
    // The events stay on for this first slice of the first cycle.
    collector_.begin_scaling(now);
    collector_.take_counted();
    recorder_.set_duty_shift(shift_);
    return;
  }
  if (slice_ == 1 && on_) switch_events(false);
  if (slice_ < (1u << shift_)) return;
  // A cycle ends: the JVM's entries over it set the next shift.
  collector_.flush_scaled(now);
  uint64_t entries = collector_.take_counted();
  shift_ = sampler_.next_shift(shift_, entries, seconds);
  recorder_.set_duty_shift(shift_);
  if (shift_ == 0) collector_.end_scaling(now);
  slice_ = 0;
  since_ = now;
  switch_events(true);
}

void ContentionDutyCycle::switch_events(bool on) {
  if (on) recorder_.start_phase(monotonic_ns());  // before any Enter of the new phase
  if (!events_.set_contended_events(on)) {
    if (!refused_) log::warn("cannot turn the monitor contention events ", on ? "on" : "off", " (duty cycling)");
    refused_ = true;
    return;
  }
  on_ = on;
  if (!on) blind_ = true;
}

bool ContentionDutyCycle::blind_since_last_asked() {
  bool blind = blind_ || !on_;
  blind_ = false;
  return blind;
}

}  // namespace jvmsight
