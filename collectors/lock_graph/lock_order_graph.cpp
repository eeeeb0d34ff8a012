#include "collectors/lock_graph/lock_order_graph.h"

#include <algorithm>
#include <iterator>

namespace jvmsight {
namespace {

// The other locks held: sorted node ids without these two.
std::vector<LockNode> gates_of(const std::vector<LockVertex>& held, LockNode from, LockNode to) {
  std::vector<LockNode> gates;
  for (const auto& h : held)
    if (h.node != from && h.node != to) gates.push_back(h.node);
  std::sort(gates.begin(), gates.end());
  gates.erase(std::unique(gates.begin(), gates.end()), gates.end());
  return gates;
}

bool contains(const std::vector<LockNode>& nodes, LockNode n) {
  return std::find(nodes.begin(), nodes.end(), n) != nodes.end();
}

}  // namespace

bool LockOrderGraph::knows_all(const std::vector<LockVertex>& held, LockNode wanted) const {
  return std::all_of(held.begin(), held.end(), [&](const LockVertex& h) {
    return h.node == wanted || edges_.count({h.node, wanted}) > 0;
  });
}

std::vector<LockOrderInversion> LockOrderGraph::add(const std::vector<LockVertex>& held, const LockVertex& wanted,
                                                    ThreadKey thread, const std::string& thread_name,
                                                    const FrameRecord& site) {
  std::vector<LockOrderInversion> found;
  for (const auto& h : held) {
    if (h.node == wanted.node) continue;  // a lock it holds already: no order
    LockOrder order{h.lock, wanted.lock, thread, thread_name, site};
    const Key key{h.node, wanted.node};
    if (observe(key, gates_of(held, h.node, wanted.node), std::move(order))) search(key, found);
  }
  return found;
}

bool LockOrderGraph::observe(const Key& key, std::vector<LockNode> gates, LockOrder order) {
  auto it = edges_.find(key);
  if (it != edges_.end()) {
    by_recency_.erase(it->second.seen);
    it->second.seen = ++clock_;
    by_recency_[it->second.seen] = key;
    // A gate counts only if it was held every time: the common part.
    std::vector<LockNode> common;
    std::set_intersection(it->second.gates.begin(), it->second.gates.end(), gates.begin(), gates.end(),
                          std::back_inserter(common));
    const bool shrank = common.size() < it->second.gates.size();
    for (LockNode g : it->second.gates)
      if (!std::binary_search(common.begin(), common.end(), g)) unref(g);
    it->second.gates = std::move(common);
    return shrank;
  }
  while (max_edges_ > 0 && edges_.size() >= max_edges_) evict_oldest();
  if (max_edges_ == 0) return false;
  Edge e{std::move(order), std::move(gates), ++clock_};
  by_recency_[e.seen] = key;
  edges_.emplace(key, std::move(e));
  out_[key.first].insert(key.second);
  // A gate must keep its node: the same lock under a new node would no
  // longer match when the other order is seen.
  for (LockNode n : {key.first, key.second}) ref(n);
  for (LockNode g : edges_.at(key).gates) ref(g);
  return true;
}

void LockOrderGraph::evict_oldest() {
  auto oldest = by_recency_.begin();
  erase_edge(edges_.find(oldest->second));
  ++forgotten_edges_;
}

void LockOrderGraph::erase_edge(std::map<Key, Edge>::iterator it) {
  const Key key = it->first;
  by_recency_.erase(it->second.seen);
  for (LockNode g : it->second.gates) unref(g);
  edges_.erase(it);
  auto outs = out_.find(key.first);
  outs->second.erase(key.second);
  if (outs->second.empty()) out_.erase(outs);
  unref(key.first);
  unref(key.second);
}

void LockOrderGraph::unref(LockNode n) {
  auto it = refs_.find(n);
  if (it != refs_.end() && --it->second == 0) refs_.erase(it);
}

// Cycles through the order `through` (X -> Y): paths from Y back to X.
void LockOrderGraph::search(const Key& through, std::vector<LockOrderInversion>& found) {
  Cycle path{through.first, through.second};
  size_t steps = 0;
  walk(path, steps, found);
}

void LockOrderGraph::walk(Cycle& path, size_t& steps, std::vector<LockOrderInversion>& found) {
  auto outs = out_.find(path.back());
  if (outs == out_.end()) return;
  for (LockNode next : outs->second) {
    if (++steps > max_search_steps) return;
    if (next == path.front()) {
      consider(path, found);
      continue;
    }
    if (path.size() >= max_cycle_locks || contains(path, next)) continue;
    path.push_back(next);
    walk(path, steps, found);
    path.pop_back();
  }
}

// A gate: a lock held at every order of the cycle. (It cannot be a lock of
// the cycle: each order's own two locks are never among its gates.)
bool LockOrderGraph::gated(const Cycle& path) const {
  std::vector<LockNode> common = edges_.at({path.back(), path.front()}).gates;
  for (size_t i = 0; i + 1 < path.size() && !common.empty(); ++i) {
    const Edge& e = edges_.at({path[i], path[i + 1]});
    std::vector<LockNode> both;
    std::set_intersection(common.begin(), common.end(), e.gates.begin(), e.gates.end(), std::back_inserter(both));
    common = std::move(both);
  }
  return !common.empty();
}

void LockOrderGraph::consider(const Cycle& path, std::vector<LockOrderInversion>& found) {
  if (gated(path)) return;
  Cycle cycle = path;
  std::rotate(cycle.begin(), std::min_element(cycle.begin(), cycle.end()), cycle.end());
  if (inversions_.count(cycle) || std::find(let_go_.begin(), let_go_.end(), cycle) != let_go_.end()) return;
  LockOrderInversion inversion;
  for (size_t i = 0; i < cycle.size(); ++i)
    inversion.orders.push_back(edges_.at({cycle[i], cycle[(i + 1) % cycle.size()]}).order);
  found.push_back(inversion);
  remember(std::move(cycle), inversion);
}

void LockOrderGraph::remember(Cycle cycle, const LockOrderInversion& inversion) {
  if (max_inversions_ == 0) return;
  if (inversions_.size() >= max_inversions_) {
    Cycle oldest = found_order_.front();
    found_order_.pop_front();
    for (LockNode n : oldest) unref(n);
    inversions_.erase(oldest);
    let_go_.push_back(std::move(oldest));
    if (let_go_.size() > max_inversions_) let_go_.pop_front();
  }
  for (LockNode n : cycle) ref(n);
  found_order_.push_back(cycle);
  inversions_.emplace(std::move(cycle), inversion);
}

void LockOrderGraph::forget(LockNode node) {
  for (auto it = edges_.begin(); it != edges_.end();) {
    auto next = std::next(it);
    if (it->first.first == node || it->first.second == node) erase_edge(it);
    it = next;
  }
  for (auto it = inversions_.begin(); it != inversions_.end();) {
    if (!contains(it->first, node)) {
      ++it;
      continue;
    }
    for (LockNode n : it->first) unref(n);
    found_order_.erase(std::find(found_order_.begin(), found_order_.end(), it->first));
    it = inversions_.erase(it);
  }
  let_go_.erase(std::remove_if(let_go_.begin(), let_go_.end(), [&](const Cycle& c) { return contains(c, node); }),
                let_go_.end());
}

std::vector<LockOrderInversion> LockOrderGraph::inversions() const {
  std::vector<LockOrderInversion> out;
  for (const Cycle& c : found_order_) out.push_back(inversions_.at(c));
  return out;
}

}  // namespace jvmsight
