#pragma once
// When to redo work too costly for every scrape (a lock scan over every
// thread, the kernel's sum of every thread's CPU time) and serve its latest
// result instead. The agent thread's periodic task redoes it while someone
// collects (a scrape or an OTLP push within demand_window), at most once per
// max(min_interval, cost_spacing times its last duration), so it costs at
// most 1/cost_spacing of a core and nothing at all while nobody looks. A
// collection finding no result, or one older than max_age(), does the work
// itself: what is served is never older than that. Agent thread only.
#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "common/clock.h"
#include "model/metric_catalogue.h"

namespace jvmsight {

class BackgroundRefresh {
 public:
  using Clock = std::chrono::steady_clock;

  // The defaults: at most 0.5% of a core, at most once a second.
  static constexpr std::chrono::milliseconds min_interval{1000};
  static constexpr int cost_spacing = 200;
  static constexpr std::chrono::minutes demand_window{3};
  // How often the agent thread asks due(); the answer decides.
  static constexpr std::chrono::milliseconds tick{250};

  BackgroundRefresh() = default;
  // Work whose result may be older, paced more lightly (the JVM's load readings).
  BackgroundRefresh(Clock::duration least_interval, int spacing)
      : min_interval_(least_interval), cost_spacing_(spacing) {}

  // A collection wants the result now.
  void demanded(Clock::time_point now) { demanded_at_ = now; }

  // The periodic task's question: redo the work now?
  bool due(Clock::time_point now) const {
    return demanded_at_ && now - *demanded_at_ <= demand_window && (!done_at_ || now >= *done_at_ + interval());
  }

  // A collection's question: is the result too old (or missing) to serve?
  bool stale(Clock::time_point now) const { return !done_at_ || now - *done_at_ > max_age(); }

  // The work was done at `end`, costing the agent thread `cpu` of CPU time
  // (not wall clock: on a busy machine that would count the waits for a
  // core, and stretch the interval and the staleness with the load).
  void done(Clock::time_point end, Clock::duration cpu) {
    done_at_ = end;
    last_cost_ = cpu;
  }

  // CPU time of the calling thread, for done().
  static Clock::duration thread_cpu() { return std::chrono::nanoseconds(clock_ns(CLOCK_THREAD_CPUTIME_ID)); }

  // How often the background redoes it: min_interval, or longer when it is costly.
  Clock::duration interval() const { return std::max<Clock::duration>(min_interval_, cost_spacing_ * last_cost_); }
  // The oldest result a collection serves.
  Clock::duration max_age() const { return 2 * interval(); }

  // <prefix>_age_seconds (how old the served result is) and
  // <prefix>_refresh_seconds (what doing it last cost, wherever it ran).
  void add_families(MetricFamilies& out, const std::string& prefix, Clock::time_point now) const {
    if (!done_at_) return;
    add_sample(add_family(out, prefix + "_age_seconds"), std::chrono::duration<double>(now - *done_at_).count());
    add_sample(add_family(out, prefix + "_refresh_seconds"), std::chrono::duration<double>(last_cost_).count());
  }

 private:
  std::optional<Clock::time_point> demanded_at_;
  std::optional<Clock::time_point> done_at_;
  Clock::duration last_cost_{};
  Clock::duration min_interval_ = min_interval;
  int cost_spacing_ = cost_spacing;
};

}  // namespace jvmsight
