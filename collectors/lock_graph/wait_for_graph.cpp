#include "collectors/lock_graph/wait_for_graph.h"

#include <algorithm>
#include <optional>

namespace jvmsight {

void WaitForGraph::add(WaitEdge edge) {
  ThreadKey waiter = edge.waiter;
  edges_[waiter] = std::move(edge);
  cycles_.reset();
}

std::vector<DeadlockCycle> WaitForGraph::cycles() const {
  if (!cycles_) cycles_ = find_cycles();
  return *cycles_;
}

std::vector<DeadlockCycle> WaitForGraph::find_cycles() const {
  // Out-degree is at most one, so walking from each unvisited thread either
  // ends (a thread that waits for nothing), runs into an earlier walk (no new
  // cycle), or returns to a thread of this walk (a new cycle starts there).
  std::map<ThreadKey, size_t> walk_of;
  std::vector<DeadlockCycle> found;
  size_t walk = 0;
  for (const auto& [start, unused] : edges_) {
    if (walk_of.count(start)) continue;
    ++walk;
    ThreadKey t = start;
    for (;;) {
      auto seen = walk_of.find(t);
      if (seen != walk_of.end()) {
        if (seen->second == walk) {
          DeadlockCycle c;
          ThreadKey u = t;
          do {
            const WaitEdge& e = edges_.at(u);
            c.edges.push_back(e);
            u = *e.owner;
          } while (u != t);
          if (c.edges.size() > 1) {
            auto first = std::min_element(c.edges.begin(), c.edges.end(),
                                          [](const WaitEdge& a, const WaitEdge& b) { return a.waiter < b.waiter; });
            std::rotate(c.edges.begin(), first, c.edges.end());
            found.push_back(std::move(c));
          }
        }
        break;
      }
      walk_of[t] = walk;
      auto edge = edges_.find(t);
      if (edge == edges_.end() || !edge->second.owner) break;
      t = *edge->second.owner;
    }
  }
  std::sort(found.begin(), found.end(),
            [](const DeadlockCycle& a, const DeadlockCycle& b) { return a.edges[0].waiter < b.edges[0].waiter; });
  return found;
}

std::set<ThreadKey> WaitForGraph::hotspot_deadlocked(const std::vector<ThreadKey>& list_order,
                                                     bool monitors_only) const {
  // The owner a thread waits for, in the walk's terms; none ends the walk.
  auto next = [&](ThreadKey t) -> std::optional<ThreadKey> {
    auto e = edges_.find(t);
    if (e == edges_.end() || (monitors_only && e->second.lock.kind != LockKind::monitor)) return std::nullopt;
    return e->second.owner;
  };
  std::map<ThreadKey, size_t> visit_number;  // HotSpot's depth-first number
  size_t numbered = 0;
  std::set<ThreadKey> deadlocked;
  // Threads HotSpot does not list (virtual threads) are walked last, by id.
  std::vector<ThreadKey> order = list_order;
  for (const auto& [waiter, unused] : edges_) order.push_back(waiter);
  for (ThreadKey start : order) {
    if (visit_number.count(start)) continue;
    const size_t this_walk = numbered;
    visit_number[start] = numbered++;
    std::vector<ThreadKey> passed;
    ThreadKey previous = start, current = start;
    while (auto owner = next(current)) {
      passed.push_back(current);
      current = *owner;
      auto seen = visit_number.find(current);
      if (seen == visit_number.end()) {
        visit_number[current] = numbered++;
      } else {
        // Seen in an earlier walk (not a new cycle), or a thread waiting on
        // itself (ignored, as HotSpot does): either way this walk ends.
        if (seen->second >= this_walk && current != previous) deadlocked.insert(passed.begin(), passed.end());
        break;
      }
      previous = current;
    }
  }
  return deadlocked;
}

std::map<ThreadKey, size_t> WaitForGraph::queued_behind() const {
  std::map<ThreadKey, size_t> out;
  for (const auto& [waiter, e] : edges_)
    if (e.owner && *e.owner != waiter) ++out[*e.owner];
  return out;
}

}  // namespace jvmsight
