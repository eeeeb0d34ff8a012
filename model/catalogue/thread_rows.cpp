// Threads, locks and deadlocks. Declarative tables: longer than a function
// should be, kept whole because a table is read as one.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {
namespace {

const std::vector<std::string> states{"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"};

std::vector<std::string> states_and_unknown() {
  auto out = states;
  out.push_back("UNKNOWN");
  return out;
}

}  // namespace

void add_thread_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  constexpr auto gauge = MetricType::gauge;
  constexpr auto counter = MetricType::counter;
  const AttributeRename state{"state", "jvm.thread.state", ValueStyle::thread_state, states};
  const AttributeRename daemon{"daemon", "jvm.thread.daemon", ValueStyle::boolean, {"true", "false"}};
  // jvm.thread.count comes from the daemon split, listed first; from
  // jvm_threads_state only where the daemon flag cannot be read (the OTLP
  // converter sends a shared name from the first row that has samples).
  rows.push_back({"jvmsight_threads_state_by_daemon",
                  "",
                  gauge,
                  "Live platform threads by Thread.State and daemon flag",
                  "threads",
                  {"jvm.thread.count", "{thread}", Instrument::updown_sum, int_value, {state, daemon}}});
  rows.push_back({"jvm_threads_state",
                  "",
                  gauge,
                  "Current count of threads by state",
                  "threads",
                  {"jvm.thread.count",
                   "{thread}",
                   Instrument::updown_sum,
                   int_value,
                   {{"state", "jvm.thread.state", ValueStyle::thread_state, states_and_unknown()}}}});
  // Our other thread gauges keep gauge semantics.
  rows.push_back({"jvm_threads_current",
                  "",
                  gauge,
                  "Current thread count of a JVM",
                  "threads",
                  {"jvmsight.threads.current", "{thread}", Instrument::gauge, double_value}});
  rows.push_back({"jvm_threads_daemon",
                  "",
                  gauge,
                  "Daemon thread count of a JVM",
                  "threads",
                  {"jvmsight.threads.daemon", "{thread}", Instrument::gauge, double_value}});
  rows.push_back({"jvm_threads_peak",
                  "",
                  gauge,
                  "Peak thread count of a JVM",
                  "threads",
                  {"jvmsight.threads.peak", "{thread}", Instrument::gauge, double_value}});
  rows.push_back({"jvm_threads_started_total",
                  "",
                  counter,
                  "Started thread count of a JVM",
                  "threads",
                  {"jvmsight.threads.started", "{thread}", Instrument::monotonic_sum, double_value}});
  rows.push_back(own("jvmsight_threads_substate", gauge,
                     "Live platform threads by JVM TI sub-state (parked, sleeping, object_wait, native, suspended); a "
                     "thread may be in several",
                     "threads", {kept("substate", {"parked", "sleeping", "object_wait", "native", "suspended"})}));
  rows.push_back(own("jvmsight_virtual_threads_supported", gauge,
                     "1 if the JVM has virtual threads and jvmsight counts the live ones (JDK 21+), else 0",
                     "threads"));
  rows.push_back(own("jvmsight_virtual_threads_started_total", counter,
                     "Virtual threads started since the agent loaded (only with virtual_thread_starts=on)", "threads"));
  rows.push_back(own("jvmsight_virtual_threads_live", gauge,
                     "Live virtual threads, as the JDK's thread containers hold them (jcmd Thread.dump_to_file)",
                     "threads"));
  // No convention (nor the OTel Java agent) names pinning: ours, JDK 21+.
  rows.push_back({"jvmsight_virtual_thread_pinned_seconds",
                  "",
                  MetricType::histogram,
                  "Virtual-thread pinnings (parks that held their carrier thread, as JFR's jdk.VirtualThreadPinned "
                  "counts them) and how long each held it",
                  "pinning",
                  {"jvmsight.virtual_thread.pinned", "s", Instrument::histogram, double_value}});
}

void add_lock_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  constexpr auto gauge = MetricType::gauge;
  constexpr auto counter = MetricType::counter;
  constexpr auto histogram = MetricType::histogram;
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
  // Monitor contention and Object.wait (collector "contention").
  rows.push_back(own("jvmsight_monitor_events_enabled", gauge,
                     "1 when JVM TI monitor contention and wait events are recorded", "contention"));
  rows.push_back(own("jvmsight_monitor_contended_enter_total", counter,
                     "Contended synchronized entries (the thread had to block), by lock class", "contention",
                     {lock_class}));
  rows.push_back(own("jvmsight_monitor_contended_wait_seconds", histogram,
                     "Time blocked entering a contended synchronized block, by lock class", "contention",
                     {lock_class}));
  // Not sent over OTLP: the rule gives it the histogram's name
  // (jvmsight.monitor_wait), and the histogram's count is this counter.
  MetricDef waits = own("jvmsight_monitor_wait_total", counter,
                        "Object.wait calls that returned (notified, timed out or interrupted)", "contention");
  waits.otlp.name.clear();
  rows.push_back(std::move(waits));
  rows.push_back(own("jvmsight_monitor_wait_seconds", histogram, "Time spent in Object.wait (waiting, not contention)",
                     "contention"));
  rows.push_back(own("jvmsight_monitor_contention_untracked_total", counter,
                     "Contended entries on lock objects beyond the agent's table, counted under lock_class=\"other\"",
                     "contention"));
  rows.push_back(own("jvmsight_monitor_contended_untimed_total", counter,
                     "Contended entries whose start was not seen (e.g. began before the agent attached) while the "
                     "events stayed on; not counted",
                     "contention"));
  rows.push_back(own("jvmsight_monitor_contention_sampling_interval", gauge,
                     "1 when the contention events are always on; N when they are on one slice of time in N (above "
                     "the contention_sampling rate), their counts scaled to the JVM's own total",
                     "contention"));
  rows.push_back(own("jvmsight_monitor_contended_wait_records_dropped_total", counter,
                     "Contended waits over contended_span_min_ms not made into spans: their ring was full",
                     "contention"));
  rows.push_back(own("jvmsight_monitor_contention_pending_locks", gauge,
                     "Contended lock objects whose class is not known yet (counted once it is, or as unresolved)",
                     "contention"));
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
}

}  // namespace jvmsight::catalogue
