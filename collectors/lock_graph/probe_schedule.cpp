#include "collectors/lock_graph/probe_schedule.h"

#include <algorithm>

namespace jvmsight {

size_t ProbeSchedule::quota_left(const Lock& lock, Clock::time_point now) const {
  auto q = quotas_.find(lock);
  if (q == quotas_.end() || now - q->second.since >= quota_window) return max_per_lock;
  return max_per_lock - std::min(max_per_lock, q->second.used);
}

void ProbeSchedule::looked(const LockWait& wait, Clock::time_point now) {
  auto [q, fresh] = quotas_.try_emplace({wait.kind, wait.lock_hash});
  if (fresh) q->second.since = now;
  ++q->second.used;
}

ProbeSchedule::Pick ProbeSchedule::pick(const WaitEpisodes& episodes, Clock::time_point now) {
  for (auto it = quotas_.begin(); it != quotas_.end();)
    it = now - it->second.since >= quota_window ? quotas_.erase(it) : std::next(it);
  // Per lock, its unexamined waiters oldest first.
  using Waiter = std::pair<Clock::time_point, ThreadKey>;
  std::map<Lock, std::vector<Waiter>> by_lock;
  for (const auto& [thread, e] : episodes.all())
    if (!e.examined && episodes.at_hand(e)) by_lock[{e.wait.kind, e.wait.lock_hash}].emplace_back(e.since, thread);
  Pick out;
  std::vector<std::vector<Waiter>> queues;
  for (auto& [lock, waiters] : by_lock) {
    std::sort(waiters.begin(), waiters.end());
    const size_t left = quota_left(lock, now);
    for (size_t i = left; i < waiters.size(); ++i) out.skip.push_back(waiters[i].second);
    waiters.resize(std::min(left, waiters.size()));
    if (!waiters.empty()) queues.push_back(std::move(waiters));
  }
  if (budget_.left(now) <= Clock::duration::zero()) return out;
  // Locks in the order of their oldest waiter; one waiter of each in turn.
  std::sort(queues.begin(), queues.end(), [](const auto& a, const auto& b) { return a.front() < b.front(); });
  for (size_t round = 0; out.look.size() < max_per_check; ++round) {
    bool any = false;
    for (const auto& q : queues) {
      if (round >= q.size() || out.look.size() >= max_per_check) continue;
      out.look.push_back(q[round].second);
      any = true;
    }
    if (!any) break;
  }
  return out;
}

}  // namespace jvmsight
