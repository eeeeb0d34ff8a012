#include "collectors/locks/monitor_edge_cache.h"

namespace jvmsight {

bool MonitorEdgeCache::try_reuse(const std::vector<jint>& candidates, bool allowed) {
  const bool reuse = allowed && valid_ && reused_ < max_reuse && candidates == candidates_;
  reused_ = reuse ? reused_ + 1 : 0;
  return reuse;
}

void MonitorEdgeCache::remember(const std::vector<jint>& candidates, const WaitForGraph& graph, bool whole) {
  valid_ = whole && graph.cycles().empty();
  if (!valid_) return;
  candidates_ = candidates;
  edges_.clear();
  for (const auto& [waiter, edge] : graph.edges())
    if (edge.lock.kind == LockKind::monitor) edges_.push_back(edge);
}

}  // namespace jvmsight
