#include "collectors/lock_graph/scan_edges.h"

#include <algorithm>

namespace jvmsight {
namespace {

LockQueues count_queues(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks) {
  LockQueues q;
  for (const auto& w : waiters) {
    const ScanLock& l = locks[w.lock];
    (l.kind == LockKind::monitor ? q.monitor_waiters : q.juc_waiters)++;
    if (l.owner_id && *l.owner_id != w.id) ++q.queued[{*l.owner_id, l.owner_name, l.class_name}];
  }
  return q;
}

WaitEdge edge_of(const ScanWaiter& w, const std::vector<ScanLock>& locks) {
  const ScanLock& l = locks[w.lock];
  WaitEdge e;
  e.waiter = w.id;
  e.lock.kind = l.kind;
  e.lock.identity_hash = l.hash;
  e.owner = l.owner_id;
  return e;
}

}  // namespace

void add_scan_edges(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks, bool full,
                    LockScan& out) {
  if (full) {
    out.queues = count_queues(waiters, locks);
    return;
  }
  std::vector<ThreadKey> owners;
  for (const auto& e : out.graph.edges())  // reused monitor edges
    if (e.second.owner) owners.push_back(*e.second.owner);
  for (const auto& l : locks)
    if (l.owner_id) owners.push_back(*l.owner_id);
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  auto owns = [&](ThreadKey id) { return std::binary_search(owners.begin(), owners.end(), id); };
  for (const auto& w : waiters)
    if (owns(w.id)) out.graph.add(edge_of(w, locks));
  if (out.graph.cycles().empty()) return;
  for (const auto& w : waiters)
    if (!owns(w.id)) out.graph.add(edge_of(w, locks));
}

}  // namespace jvmsight
