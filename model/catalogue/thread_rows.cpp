// Threads and virtual-thread pinning. Declarative tables: longer than a
// function should be, kept whole because a table is read as one.
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
                     "Virtual threads started since the agent loaded", "threads"));
  rows.push_back(own("jvmsight_virtual_threads_live", gauge,
                     "Live virtual threads, as the JDK's thread containers hold them (jcmd Thread.dump_to_file)",
                     "threads"));
  // Thread pools: no convention counts threads by pool and Thread.State
  // (jvm.executor.* counts an executor's busy and idle workers).
  const auto pool = kept("pool");
  rows.push_back({"jvmsight_thread_pool_threads",
                  "",
                  gauge,
                  "Live platform threads by pool (the thread's name less its trailing number) and Thread.State; "
                  "pools past the thread_pools cap count as pool=\"other\"",
                  "thread_pools",
                  {"jvmsight.thread_pool.threads",
                   "{thread}",
                   Instrument::updown_sum,
                   int_value,
                   {pool, kept("state", {"RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING"})}}});
  rows.push_back({"jvmsight_thread_pool_cpu_seconds_total",
                  "",
                  counter,
                  "CPU time used by the pool's threads, live and ended, as of the latest background reading (see "
                  "jvmsight_thread_pool_cpu_age_seconds)",
                  "thread_pools",
                  {"jvmsight.thread_pool.cpu", "s", Instrument::monotonic_sum, double_value, {pool}}});
  rows.push_back(own("jvmsight_thread_pool_cpu_age_seconds", gauge,
                     "Age of the thread pools' CPU times served in this collection (read in the background)",
                     "thread_pools"));
  rows.push_back(own("jvmsight_thread_pool_cpu_refresh_seconds", gauge,
                     "CPU time the agent thread last spent reading the thread pools' names and CPU times",
                     "thread_pools"));
  // No convention (nor the OTel Java agent) names pinning: ours, JDK 21+.
  rows.push_back({"jvmsight_virtual_thread_pinned_seconds",
                  "",
                  MetricType::histogram,
                  "Virtual-thread pinnings (parks that held their carrier thread, as JFR's jdk.VirtualThreadPinned "
                  "counts them) and how long each held it",
                  "pinning",
                  {"jvmsight.virtual_thread.pinned", "s", Instrument::histogram, double_value}});
}

}  // namespace jvmsight::catalogue
