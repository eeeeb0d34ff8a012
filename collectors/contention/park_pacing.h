#pragma once
// How often the block sampler looks, and how many stacks it takes
// (docs/PROFILES.md). A round every min_interval while waits begin and end
// and rounds are cheap, so waits of tens of milliseconds are seen in full;
// while no thread is parked on a synchronizer it looks every idle_interval
// (virtual threads' rounds every absent_interval while none is alive),
// and while the same threads stay in the same waits (a pileup on a lock held
// for long) twice as long after each round, up to max_interval. Whatever
// the schedule, a round that cost more (thousands of threads to read)
// pushes the next one back so rounds take at most round_budget of a core,
// past max_interval if need be (up to longest_interval). Stacks have budgets of
// their own and never delay a round (ParkEpisodes keeps a wait pending until
// its stack is taken): on JDK 17+ each is a handshake on the agent thread
// (stack_budget of a core, at least one a round), on JDK 8 and 11 a round's
// stacks are one safepoint, the next no sooner than keeps those stops under
// stop_budget of the time. Each observation is weighted by the interval
// that actually passed, so any schedule keeps the waiting time unbiased;
// only the resolution changes. Pure.
#include <algorithm>
#include <chrono>
#include <cstddef>

namespace jvmsight {

struct ParkPacing {
  std::chrono::nanoseconds min_interval{std::chrono::milliseconds(10)};
  std::chrono::nanoseconds idle_interval{std::chrono::milliseconds(50)};
  // How late the first virtual threads' waits may be seen: a JVM that has
  // none is asked this often (each ask is a JNI call and an empty walk).
  std::chrono::nanoseconds absent_interval{std::chrono::milliseconds(250)};
  std::chrono::nanoseconds max_interval{std::chrono::seconds(4)};
  // How far the budget may push a costly round's successor (a pileup of
  // 10,000 threads read in 10 ms waits 2 s; a million virtual threads longer).
  std::chrono::nanoseconds longest_interval{std::chrono::seconds(60)};
  double round_budget = 0.005;  // of a core: the agent thread reading parked threads
  double stop_budget = 0.005;   // of the time: safepoints taking stacks (JDK 8, 11)
  double stack_budget = 0.01;   // of a core: handshakes taking stacks (JDK 17+)

  // After a round whose reading cost `cpu`, having seen `parked` threads
  // waiting, `changed` or not since the round before, `last` after it;
  // `alive`: any thread of the round's kind exists.
  std::chrono::nanoseconds next(std::chrono::nanoseconds cpu, size_t parked, bool changed,
                                std::chrono::nanoseconds last, bool alive = true) const {
    const auto floor = !alive        ? absent_interval
                       : parked == 0 ? idle_interval
                       : changed     ? min_interval
                                     : std::min(2 * last, max_interval);
    return std::min(std::max({scaled(cpu, round_budget), floor, min_interval}), longest_interval);
  }
  // After a safepoint that stopped the VM for `stopped` to take stacks: how
  // long until the next may.
  std::chrono::nanoseconds after_stop(std::chrono::nanoseconds stopped) const { return scaled(stopped, stop_budget); }
  // Handshakes a round covering `covered` may take, each costing about `each`.
  size_t stacks(std::chrono::nanoseconds covered, std::chrono::nanoseconds each, size_t most) const {
    const double fit =
        static_cast<double>(covered.count()) * stack_budget / static_cast<double>(std::max<int64_t>(each.count(), 1));
    return std::clamp<size_t>(static_cast<size_t>(fit), 1, most);
  }

  static std::chrono::nanoseconds scaled(std::chrono::nanoseconds cost, double budget) {
    return std::chrono::nanoseconds(static_cast<int64_t>(static_cast<double>(cost.count()) / budget));
  }
};

}  // namespace jvmsight
