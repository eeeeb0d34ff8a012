#include "collectors/lock_graph/mx_bean_lock_graph_source.h"

namespace jvmsight {

WaitForGraph graph_of(const std::vector<ThreadRecord>& threads) {
  WaitForGraph g;
  for (const auto& t : threads) {
    if (!t.lock || (t.state != "BLOCKED" && wait_verb(t) != WaitVerb::parking_to_wait_for)) continue;
    WaitEdge e;
    e.waiter = t.id;
    e.waiter_name = t.name;
    e.lock = {t.lock->identity_hash, t.lock->class_name, t.state == "BLOCKED" ? LockKind::monitor : LockKind::juc};
    e.owner = t.lock_owner_id;
    e.owner_name = t.lock_owner_name;
    g.add(std::move(e));
  }
  return g;
}

std::optional<LockScan> MxBeanLockGraphSource::scan(ScanDepth) {
  auto ids = reader_.find_deadlocked(false);
  if (!ids) return std::nullopt;
  LockScan out;
  out.thread_stops = 1;  // findDeadlockedThreads: a safepoint
  if (ids->empty()) return out;
  auto threads = reader_.threads(*ids);
  if (!threads) return std::nullopt;
  ++out.thread_stops;  // their stacks: another
  out.graph = graph_of(*threads);
  out.list_order = *ids;  // HotSpot's own listing: its walks' order
  for (const auto& [k, e] : out.graph.edges())
    if (e.lock.kind == LockKind::monitor) out.monitor_classes[e.lock.identity_hash] = e.lock.class_name;
  return out;
}

}  // namespace jvmsight
