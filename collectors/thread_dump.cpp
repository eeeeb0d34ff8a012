#include "collectors/thread_dump.h"

namespace jvmsight {

WaitVerb wait_verb(const ThreadRecord& t) {
  if (!t.lock) return WaitVerb::none;
  if (t.state == "BLOCKED") return WaitVerb::waiting_to_lock;
  if (!t.stack.empty() && t.stack[0].method == "park" &&
      t.stack[0].class_name.size() >= 6 && t.stack[0].class_name.compare(t.stack[0].class_name.size() - 6, 6, "Unsafe") == 0)
    return WaitVerb::parking_to_wait_for;
  return WaitVerb::waiting_on;
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
