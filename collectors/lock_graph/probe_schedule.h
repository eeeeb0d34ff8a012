#pragma once
// Which new waits the lock-order probe looks at, and when. Looking at one
// costs a handshake with the waiting thread (GetOwnedMonitorInfo: what it
// holds), and a second one (GetStackTrace: where it asked) when that makes
// an order not known yet; on JDK 8 each is a safepoint, 5-40 ms at 10,000
// threads. A pileup of thousands of threads on one lock is thousands of new
// waits at once, nearly all from the same code holding nothing. So:
// - at most max_per_lock new waits of one lock are looked at per
//   quota_window; the rest of a pileup is skipped (never looked at);
// - at most max_per_check waits a check, one per lock in turn (the waiter
//   of a rare lock is not kept waiting behind a pileup), oldest first, and
//   no more within a check once it has spent max_check_time;
// - a budget of time that refills at 1/cost_spacing of the wall clock
//   (0.2%) up to max_burst: a few new waits are looked at at once, many at
//   no more than 0.2% of the time.
// A wait that ends before its turn is not looked at. Pure: no JVM.
#include <chrono>
#include <map>
#include <utility>
#include <vector>

#include "collectors/lock_graph/time_budget.h"
#include "collectors/lock_graph/wait_episodes.h"

namespace jvmsight {

class ProbeSchedule {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t max_per_check = 16;
  static constexpr std::chrono::milliseconds max_check_time{20};
  static constexpr int cost_spacing = 500;
  static constexpr std::chrono::milliseconds max_burst{50};
  static constexpr size_t max_per_lock = 64;
  static constexpr std::chrono::seconds quota_window{60};

  // Among the waits the last scan read and nobody looked at yet (threads):
  // those to look at now, in this order (none while the budget is spent),
  // and those to skip for good (their lock's quota is used up).
  struct Pick {
    std::vector<ThreadKey> look;
    std::vector<ThreadKey> skip;
  };
  Pick pick(const WaitEpisodes& episodes, Clock::time_point now);
  // One of them was looked at: it counts against its lock's quota.
  void looked(const LockWait& wait, Clock::time_point now);
  // What looking at them took.
  void spent(Clock::duration cost) { budget_.spent(cost); }

 private:
  using Lock = std::pair<LockKind, int32_t>;
  struct Quota {
    Clock::time_point since;
    size_t used = 0;
  };
  size_t quota_left(const Lock& lock, Clock::time_point now) const;

  TimeBudget budget_{cost_spacing, max_burst};
  std::map<Lock, Quota> quotas_;  // locks looked at within the last window
};

}  // namespace jvmsight
