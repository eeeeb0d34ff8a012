#pragma once
// Which new waits the lock-order probe looks at, and when. Looking at one
// costs a handshake with the waiting thread (GetOwnedMonitorInfo: what it
// holds), and a second one (GetStackTrace: where it asked) when that makes
// an order not known yet; on JDK 8 each is a safepoint, 5-40 ms at 10,000
// threads. A pileup of thousands of threads on one lock is thousands of new
// waits at once. So: at most max_per_check waits a check, one per lock in
// turn (the few waiters of a rare lock are not kept waiting behind a
// pileup), the oldest first; no more within a check once it has spent
// max_check_time; and a budget of time that refills at 1/cost_spacing of
// the wall clock (0.2%) up to max_burst: a few new waits are looked at at
// once, a backlog of thousands at no more than 0.2% of the time (the agent
// at rest stays within 1% of a core with a pileup of 10,000 new waits). A
// wait that ends before its turn is not looked at. Pure: no JVM.
#include <chrono>
#include <optional>
#include <vector>

#include "collectors/lock_graph/wait_episodes.h"

namespace jvmsight {

class ProbeSchedule {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t max_per_check = 16;
  static constexpr std::chrono::milliseconds max_check_time{20};
  static constexpr int cost_spacing = 500;
  static constexpr std::chrono::milliseconds max_burst{50};

  // The waits (their threads) not looked at yet, among those the last scan
  // read, to look at now (none while the budget is spent).
  std::vector<ThreadKey> pick(const WaitEpisodes& episodes, Clock::time_point now);
  // What looking at them took, ending at now.
  void spent(Clock::duration cost) { budget_ -= cost; }

 private:
  void refill(Clock::time_point now);
  Clock::duration budget_ = max_burst;
  std::optional<Clock::time_point> refilled_;
};

}  // namespace jvmsight
