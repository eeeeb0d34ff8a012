#include "collectors/lock_graph/deadlock_reports.h"

namespace jvmsight {

DeadlockReport DeadlockReports::describe(const DeadlockCycle& cycle) {
  DeadlockReport report{cycle, {}};
  std::vector<ThreadKey> ids;
  for (const auto& e : cycle.edges) ids.push_back(e.waiter);
  if (auto threads = threads_.threads(ids)) report.threads = std::move(*threads);
  add_cycle_synchronizers(report);
  return report;
}

std::vector<DeadlockReport> DeadlockReports::describe(const std::vector<DeadlockCycle>& cycles) {
  std::vector<DeadlockReport> out;
  for (const auto& c : cycles) out.push_back(describe(c));
  return out;
}

void DeadlockReports::describe(StuckThreadReport& stuck) {
  std::vector<ThreadKey> ids{stuck.thread};
  if (stuck.owner && *stuck.owner != stuck.thread) ids.push_back(*stuck.owner);
  if (auto threads = threads_.threads(ids)) stuck.threads = std::move(*threads);
  if (!stuck.threads.empty() && stuck.threads.front().id == stuck.thread) {
    stuck.thread_name = stuck.threads.front().name;
    // The class, when the check had no reference to the lock at hand.
    const auto& lock = stuck.threads.front().lock;
    if (stuck.lock.class_name.empty() && lock && lock->identity_hash == stuck.lock.identity_hash)
      stuck.lock.class_name = lock->class_name;
  }
}

void add_cycle_synchronizers(DeadlockReport& report) {
  for (auto& t : report.threads) {
    for (const auto& e : report.cycle.edges) {
      if (e.lock.kind != LockKind::juc || !e.owner || *e.owner != t.id) continue;
      bool known = false;
      for (const auto& l : t.owned_synchronizers) known = known || l.identity_hash == e.lock.identity_hash;
      if (!known) t.owned_synchronizers.push_back({e.lock.identity_hash, e.lock.class_name});
    }
  }
}

}  // namespace jvmsight
