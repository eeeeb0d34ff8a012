// The lock graph: deadlocks, and lock holders with their queues.
// Declarative tables: longer than a function should be, kept whole because a
// table is read as one.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {

void add_lock_graph_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  constexpr auto gauge = MetricType::gauge;
  constexpr auto counter = MetricType::counter;
  const auto lock_class = kept("lock_class");
  // Deadlocks (collector "deadlocks").
  rows.push_back({"jvm_threads_deadlocked",
                  "",
                  gauge,
                  "Cycles of JVM-threads that are in deadlock waiting to acquire object monitors or ownable "
                  "synchronizers",
                  "deadlocks",
                  {"jvmsight.threads.deadlocked", "{thread}", Instrument::gauge, double_value}});
  rows.push_back({"jvm_threads_deadlocked_monitor",
                  "",
                  gauge,
                  "Cycles of JVM-threads that are in deadlock waiting to acquire object monitors",
                  "deadlocks",
                  {"jvmsight.threads.deadlocked_monitor", "{thread}", Instrument::gauge, double_value}});
  rows.push_back(own("jvmsight_deadlock_cycles", gauge,
                     "Deadlock cycles found by the background check (each confirmed by a second scan)", "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_last_success_timestamp_seconds", gauge,
                     "When the background deadlock check last succeeded, in seconds since the Unix epoch",
                     "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_checks_total", counter, "Background deadlock checks run", "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_failures_total", counter, "Background deadlock checks the JVM refused",
                     "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_thread_stops_total", counter,
                     "Handshakes and VM operations the background check asked of the JVM (each stops one "
                     "application thread, or all of them, briefly)",
                     "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_cpu_seconds_total", counter,
                     "CPU time the agent thread spent in background deadlock checks, all of them", "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_duration_seconds_total", counter,
                     "Wall-clock time spent in background deadlock checks, all of them (confirmation delays "
                     "included)",
                     "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_seconds", gauge,
                     "Duration of the last background deadlock check that found no new cycle", "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_median_seconds", gauge,
                     "Median duration of the last 32 background deadlock checks that found no new cycle", "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_cpu_median_seconds", gauge,
                     "Median CPU time of the agent thread in the last 32 background deadlock checks that found no "
                     "new cycle",
                     "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_max_seconds", gauge,
                     "Longest background deadlock check that found no new cycle", "deadlocks"));
  rows.push_back(own("jvmsight_deadlock_check_stops_the_world", gauge,
                     "1 when the check uses the ThreadMXBean fallback (attached without the JVM TI capabilities)",
                     "deadlocks"));
  // Lock holders and j.u.c. locks (collector "lock_queue").
  rows.push_back(own("jvmsight_juc_parked_threads", gauge,
                     "Platform threads parked on a java.util.concurrent lock (an AbstractOwnableSynchronizer: "
                     "ReentrantLock, ReentrantReadWriteLock, Semaphore...), by synchronizer class",
                     "lock_queue", {lock_class}));
  rows.push_back(own("jvmsight_lock_waiting_threads", gauge,
                     "Platform threads waiting for a lock: blocked entering a monitor, or parked on a "
                     "java.util.concurrent lock",
                     "lock_queue", {kept("kind", {"monitor", "juc"})}));
  rows.push_back(own("jvmsight_lock_queue_length", gauge,
                     "Threads waiting for a lock this thread holds, for the top holders by queue length", "lock_queue",
                     {kept("holder"), kept("holder_id"), lock_class}));
  rows.push_back(own("jvmsight_lock_queue_age_seconds", gauge,
                     "Age of the lock queue families served in this collection (gathered in the background)",
                     "lock_queue"));
  rows.push_back(own("jvmsight_lock_queue_refresh_seconds", gauge,
                     "CPU time the agent thread last spent gathering the lock queue families", "lock_queue"));
  // Deadlocks before they happen: lock-order inversions and threads stuck
  // on a lock (collector "lock_watch", from the deadlock check's scans).
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
