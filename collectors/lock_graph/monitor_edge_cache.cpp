#include "collectors/lock_graph/monitor_edge_cache.h"

#include <algorithm>

namespace jvmsight {

bool MonitorEdgeCache::try_reuse(const std::vector<jint>& candidates, bool allowed, Clock::time_point now) {
  const bool reuse = allowed && valid_ && (reused_ < max_reuse || now < fresh_due_) && candidates == candidates_;
  reused_ = reuse ? reused_ + 1 : 0;
  return reuse;
}

void MonitorEdgeCache::remember(const std::vector<jint>& candidates, const WaitForGraph& graph, bool whole,
                                Clock::duration read_cost, Clock::time_point now) {
  valid_ = whole && graph.cycles().empty();
  if (!valid_) return;
  fresh_due_ = now + std::min<Clock::duration>(fresh_spacing * read_cost, max_reuse_time);
  candidates_ = candidates;
  edges_.clear();
  for (const auto& [waiter, edge] : graph.edges())
    if (edge.lock.kind == LockKind::monitor) edges_.push_back(edge);
}

}  // namespace jvmsight
