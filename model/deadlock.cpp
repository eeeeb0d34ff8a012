#include "model/deadlock.h"

#include <algorithm>

namespace jvmsight {

bool DeadlockCycle::monitor_only() const {
  return std::all_of(edges.begin(), edges.end(), [](const WaitEdge& e) { return e.lock.kind == LockKind::monitor; });
}

std::string DeadlockCycle::key() const {
  std::string k;
  for (const auto& e : edges) {
    k += std::to_string(e.waiter) + (e.lock.kind == LockKind::monitor ? ">m" : ">j") +
         std::to_string(e.lock.identity_hash) + ":" + e.lock.class_name + ">" +
         (e.owner ? std::to_string(*e.owner) : "-") + ";";
  }
  return k;
}

}  // namespace jvmsight
