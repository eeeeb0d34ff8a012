// Deadlocks before they happen: lock-order inversions and threads stuck on
// a lock (collector "lock_watch", collectors/lock_graph/lock_wait_watch.h).
// A declarative table.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {

void add_lock_watch_rows(std::vector<MetricDef>& rows) {
  constexpr auto gauge = MetricType::gauge;
  rows.push_back(own("jvmsight_lock_order_inversions", gauge,
                     "Lock-order inversions known (potential deadlocks): cycles of locks taken in opposite orders "
                     "while some thread waited, without a common gate lock",
                     "lock_watch"));
  rows.push_back(own("jvmsight_lock_order_edges", gauge,
                     "Lock orders remembered (a thread that held one lock waited for another), at most 1024",
                     "lock_watch"));
  rows.push_back(own("jvmsight_lock_order_edges_forgotten_total", MetricType::counter,
                     "Lock orders forgotten to stay within the bound, least recently seen first", "lock_watch"));
  rows.push_back(own("jvmsight_threads_stuck", gauge,
                     "Threads that have waited for the same lock (monitor entry, or a j.u.c. lock with an owner) "
                     "at least stuck_threshold_ms",
                     "lock_watch", {kept("kind", {"monitor", "juc"})}));
  // The unit last, as in jvmsight_gc_pause_max_seconds: its OTLP name
  // (jvmsight.threads_stuck_max, unit s) maps back to it.
  rows.push_back(own("jvmsight_threads_stuck_max_seconds", gauge,
                     "The longest wait of a stuck thread so far, in seconds (0 when none is stuck)", "lock_watch"));
}

}  // namespace jvmsight::catalogue
