#pragma once
// A share of the wall clock for some work that may pile up: time that
// refills at 1/spacing of the clock, up to a burst. A little work is done
// at once; a backlog takes no more than its share. What was spent beyond
// the budget is a debt the refill repays first. Pure: no JVM.
#include <algorithm>
#include <chrono>
#include <optional>

namespace jvmsight {

class TimeBudget {
 public:
  using Clock = std::chrono::steady_clock;
  TimeBudget(int spacing, Clock::duration burst) : spacing_(spacing), burst_(burst), left_(burst) {}

  // What is left now (negative: a debt).
  Clock::duration left(Clock::time_point now) {
    if (refilled_ && now > *refilled_) left_ = std::min(burst_, left_ + (now - *refilled_) / spacing_);
    refilled_ = now;
    return left_;
  }
  void spent(Clock::duration cost) { left_ -= cost; }

 private:
  int spacing_;
  Clock::duration burst_;
  Clock::duration left_;
  std::optional<Clock::time_point> refilled_;
};

}  // namespace jvmsight
