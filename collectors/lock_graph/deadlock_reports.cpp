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
