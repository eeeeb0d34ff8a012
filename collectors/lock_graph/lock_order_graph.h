#pragma once
// The orders in which threads take locks, and the cycles among them
// (lockdep's idea, for JVM locks). Each time the deadlock check sees a
// thread that holds locks wait for another lock Y, every held lock X gives
// the order X -> Y, remembered with the thread and the call site that asked
// for Y. A cycle of orders is a potential deadlock even when the orders
// never overlapped in time. A cycle whose every order was taken while one
// common lock was held (a gate) cannot deadlock, since only one thread at a
// time holds the gate: it is not reported. Each cycle is reported once.
//
// Nodes are lock objects, named by LockNode ids that the caller assigns and
// never reuses; a lock that was collected is forgotten (forget) with its
// orders and the inversions through it. Bounded: at most max_edges orders
// (the least recently seen is forgotten first, and counted), at most
// max_inversions known at a time, cycles of at most max_cycle_locks locks,
// and max_search_steps edge visits per search. Pure: no JVM.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "model/lock_order.h"

namespace jvmsight {

using LockNode = uint64_t;

// A lock as the graph names it: its node and its description for reports.
struct LockVertex {
  LockNode node = 0;
  LockId lock;
};

class LockOrderGraph {
 public:
  static constexpr size_t max_cycle_locks = 8;
  static constexpr size_t max_search_steps = 10'000;

  LockOrderGraph(size_t max_edges, size_t max_inversions) : max_edges_(max_edges), max_inversions_(max_inversions) {}

  // Whether every order held -> wanted is known already: then the call site
  // (a stack walk) is not needed.
  bool knows_all(const std::vector<LockVertex>& held, LockNode wanted) const;
  // A thread holding `held` waits for `wanted` (site: LockOrder::site).
  // Returns the inversions this makes known for the first time.
  std::vector<LockOrderInversion> add(const std::vector<LockVertex>& held, const LockVertex& wanted, ThreadKey thread,
                                      const std::string& thread_name, const FrameRecord& site);
  // A lock that was collected: its orders and the inversions through it go.
  void forget(LockNode node);
  // Whether an order (as one of its two locks or a gate) or a known
  // inversion refers to this lock.
  bool uses(LockNode node) const { return refs_.count(node) > 0; }

  std::vector<LockOrderInversion> inversions() const;
  size_t inversion_count() const { return inversions_.size(); }
  size_t edge_count() const { return edges_.size(); }
  uint64_t forgotten_edges() const { return forgotten_edges_; }

 private:
  using Key = std::pair<LockNode, LockNode>;
  using Cycle = std::vector<LockNode>;  // starting at its smallest node
  struct Edge {
    LockOrder order;              // as first seen
    std::vector<LockNode> gates;  // sorted: other locks held every time this order was seen
    uint64_t seen = 0;            // recency, for eviction
  };

  // Records one order; true if it is new or its gates shrank (a search is due).
  bool observe(const Key& key, std::vector<LockNode> gates, LockOrder order);
  void evict_oldest();
  void erase_edge(std::map<Key, Edge>::iterator it);
  void search(const Key& through, std::vector<LockOrderInversion>& found);
  void walk(Cycle& path, size_t& steps, std::vector<LockOrderInversion>& found);
  void consider(const Cycle& path, std::vector<LockOrderInversion>& found);
  bool gated(const Cycle& path) const;
  void remember(Cycle cycle, const LockOrderInversion& inversion);
  void ref(LockNode n) { ++refs_[n]; }
  void unref(LockNode n);

  size_t max_edges_;
  size_t max_inversions_;
  std::map<Key, Edge> edges_;
  std::map<LockNode, std::set<LockNode>> out_;  // from -> the locks taken after it
  std::map<uint64_t, Key> by_recency_;
  std::map<LockNode, size_t> refs_;  // references from orders (gates too) and inversions
  std::map<Cycle, LockOrderInversion> inversions_;
  std::deque<Cycle> found_order_;  // known ones, oldest first, for max_inversions
  // Cycles reported and no longer known because of max_inversions (not
  // because a lock was collected): not reported again. At most
  // max_inversions of them, oldest forgotten first.
  std::deque<Cycle> let_go_;
  uint64_t clock_ = 0;
  uint64_t forgotten_edges_ = 0;
};

}  // namespace jvmsight
