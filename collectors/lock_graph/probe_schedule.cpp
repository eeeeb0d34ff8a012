#include "collectors/lock_graph/probe_schedule.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

namespace jvmsight {

void ProbeSchedule::refill(Clock::time_point now) {
  if (refilled_ && now > *refilled_)
    budget_ = std::min<Clock::duration>(max_burst, budget_ + (now - *refilled_) / cost_spacing);
  refilled_ = now;
}

std::vector<ThreadKey> ProbeSchedule::pick(const WaitEpisodes& episodes, Clock::time_point now) {
  refill(now);
  std::vector<ThreadKey> out;
  if (budget_ <= Clock::duration::zero()) return out;
  // Per lock, its unexamined waiters oldest first.
  using Waiter = std::pair<Clock::time_point, ThreadKey>;
  std::map<std::pair<LockKind, int32_t>, std::vector<Waiter>> by_lock;
  for (const auto& [thread, e] : episodes.all())
    if (!e.examined && episodes.at_hand(e)) by_lock[{e.wait.kind, e.wait.lock_hash}].emplace_back(e.since, thread);
  std::vector<std::vector<Waiter>> queues;
  for (auto& [lock, waiters] : by_lock) {
    std::sort(waiters.begin(), waiters.end());
    queues.push_back(std::move(waiters));
  }
  // Locks in the order of their oldest waiter; one waiter of each in turn.
  std::sort(queues.begin(), queues.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  for (size_t round = 0; out.size() < max_per_check; ++round) {
    bool any = false;
    for (const auto& q : queues) {
      if (round >= q.size() || out.size() >= max_per_check) continue;
      out.push_back(q[round].second);
      any = true;
    }
    if (!any) break;
  }
  return out;
}

}  // namespace jvmsight
