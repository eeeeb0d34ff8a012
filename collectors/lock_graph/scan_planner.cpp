#include "collectors/lock_graph/scan_planner.h"

#include <algorithm>

namespace jvmsight {

void ScanPlanner::decide(ScanPlan& p, bool allow_reuse, bool blocked_anew, Clock::time_point now) {
  if (p.full) return;  // a scrape reads everything, and leaves the cache alone
  p.reuse = cache_.try_reuse(p.candidates, allow_reuse && p.from_java && !blocked_anew, now);
  if (!p.from_java) return;
  const bool fresh_anew = blocked_anew && !p.reuse;
  if (fresh_anew) skip_moved(p);
  churn_ = fresh_anew;
}

// Reads the blocked candidates' counts at every check that re-reads edges
// because threads blocked anew, so the next one can compare; skips the moved
// ones only if the previous check was such a check too (churn). A single
// burst of new blocking, like a deadlock forming, is read whole at once.
void ScanPlanner::skip_moved(ScanPlan& p) {
  if (counts_ == nullptr) return;
  std::vector<jlong> ids;
  std::vector<size_t> at;
  for (size_t k = 0; k < p.candidates.size() && k < p.groups.size() && k < p.ids.size(); ++k) {
    if (p.groups[k] != ScanPlan::monitor_group) continue;
    ids.push_back(p.ids[k]);
    at.push_back(k);
  }
  if (ids.size() > max_progress_reads) {
    progress_.forget();
    return;
  }
  std::optional<std::vector<jlong>> counts;
  if (!ids.empty()) counts = counts_->of(ids);
  std::vector<bool> unmoved = progress_.unmoved(ids, counts ? *counts : std::vector<jlong>{});
  if (!churn_) return;
  p.moved.assign(p.candidates.size(), false);
  for (size_t j = 0; j < at.size(); ++j) p.moved[at[j]] = !unmoved[j];
}

void ScanPlanner::scanned(const ScanPlan& p, const WaitForGraph& graph, Clock::duration read_cost,
                          Clock::time_point now) {
  if (p.reuse || p.full) return;
  // Edges of moved threads were not read: not a whole set to reuse.
  const bool all_read = std::find(p.moved.begin(), p.moved.end(), true) == p.moved.end();
  cache_.remember(p.candidates, graph, p.from_java && all_read, read_cost, now);
}

bool ScanPlanner::virtual_walk_due(uint64_t live_virtual, Clock::time_point now) const {
  if (live_virtual == 0 || live_virtual > max_virtual_walked) return false;
  return cycle_in_last_check_ || now >= next_virtual_walk_;
}

}  // namespace jvmsight
