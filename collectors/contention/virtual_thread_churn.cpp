#include "collectors/contention/virtual_thread_churn.h"

#include "common/log.h"

namespace jvmsight {

uint32_t VirtualThreadChurn::shift(Clock::time_point now) {
  const std::optional<uint64_t> started = started_();
  if (!started) return shift_ = 0;
  if (last_ == Clock::time_point{}) {
    last_ = now;
    last_started_ = *started;
    return shift_;
  }
  const double seconds = std::chrono::duration<double>(now - last_).count();
  if (seconds <= 0) return shift_;
  // The JVM's count, not what the events saw: the sampler's "current" is
  // only its hysteresis here.
  const uint64_t starts = *started - last_started_;
  shift_ = sampler_.next_shift(shift_, starts, seconds);
  last_ = now;
  last_started_ = *started;
  if (shift_ > 0 && !told_) {
    told_ = true;
    log::info("virtual threads start at about ", static_cast<uint64_t>(starts / seconds),
              " a second: on JDK 21 the monitor events and the pinning probes in use are on part of the time "
              "from now on while they do (virtual_thread_churn; contention totals stay exact, waits and "
              "pinnings are scaled estimates)");
  }
  return shift_;
}

}  // namespace jvmsight
