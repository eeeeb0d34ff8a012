#include "collectors/lock_graph/wait_episodes.h"

#include <algorithm>
#include <tuple>

namespace jvmsight {

WaitEpisodes::WaitEpisodes(Clock::duration threshold)
    : threshold_(threshold), recount_(std::max<Clock::duration>(threshold, std::chrono::seconds(1))) {}

void WaitEpisodes::observe(const std::vector<LockWait>& waits, WaitCoverage coverage, Clock::time_point now) {
  const uint64_t check = ++observed_;
  for (const LockWait& w : waits) {
    auto [it, fresh] = episodes_.try_emplace(w.thread);
    WaitEpisode& e = it->second;
    if (fresh || !e.wait.same_lock(w)) {
      e = WaitEpisode{};
      e.since = now;
    }
    e.wait = w;  // the same lock may have changed hands: a queue moves on
    e.seen = check;
  }
  // Waits this check did not read stand as they were; the others ended.
  for (auto it = episodes_.begin(); it != episodes_.end();) {
    const WaitEpisode& e = it->second;
    const bool unread =
        e.wait.virtual_thread ? !coverage.virtual_threads : (e.wait.kind == LockKind::monitor && !coverage.monitors);
    if (e.seen == check || unread)
      ++it;
    else
      it = episodes_.erase(it);
  }
}

std::vector<ThreadKey> WaitEpisodes::due_for_count(Clock::time_point now, size_t max) const {
  // (priority, time, thread): crossing the threshold, never counted, stale.
  std::vector<std::tuple<int, Clock::time_point, ThreadKey>> due;
  for (const auto& [thread, e] : episodes_) {
    if (e.wait.virtual_thread) continue;
    if (!e.count)
      due.emplace_back(1, e.since, thread);
    else if (now - e.since >= threshold_ && e.counted_at - e.since < threshold_)
      due.emplace_back(0, e.since, thread);
    else if (now - e.counted_at >= recount_)
      due.emplace_back(2, e.counted_at, thread);
  }
  const size_t n = std::min({due.size(), max, max_counts_per_check});
  std::partial_sort(due.begin(), due.begin() + static_cast<std::ptrdiff_t>(n), due.end());
  std::vector<ThreadKey> out;
  for (size_t i = 0; i < n; ++i) out.push_back(std::get<2>(due[i]));
  return out;
}

void WaitEpisodes::counted(const std::vector<ThreadKey>& ids, const std::vector<int64_t>& counts,
                           Clock::time_point now) {
  for (size_t i = 0; i < ids.size() && i < counts.size(); ++i) {
    auto it = episodes_.find(ids[i]);
    if (it == episodes_.end() || counts[i] < 0) continue;
    WaitEpisode& e = it->second;
    if (!e.count) {
      // The count vouches for the wait from now on only (the same time as
      // first seen, unless more threads started waiting than one check counts).
      e.since = now;
    } else if (*e.count != counts[i]) {
      // It waited anew since the last read: a new episode, which may also
      // hold other locks than before.
      e.since = now;
      e.examined = false;
      e.reported = false;
    }
    e.count = counts[i];
    e.counted_at = now;
  }
}

bool WaitEpisodes::stuck(const WaitEpisode& e, Clock::time_point now) const {
  if (e.wait.virtual_thread) return now - e.since >= threshold_;
  return e.count && e.counted_at - e.since >= threshold_;
}

std::vector<WaitEpisode> WaitEpisodes::newly_stuck(Clock::time_point now) {
  std::vector<WaitEpisode> out;
  for (auto& [thread, e] : episodes_) {
    if (e.reported || !stuck(e, now)) continue;
    e.reported = true;
    out.push_back(e);
  }
  std::sort(out.begin(), out.end(),
            [](const WaitEpisode& a, const WaitEpisode& b) { return a.wait.thread < b.wait.thread; });
  return out;
}

}  // namespace jvmsight
