// Monitor contention and Object.wait. Declarative tables: longer than a
// function should be, kept whole because a table is read as one.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {

void add_contention_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  constexpr auto gauge = MetricType::gauge;
  constexpr auto counter = MetricType::counter;
  constexpr auto histogram = MetricType::histogram;
  const auto lock_class = kept("lock_class");
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
  // The contention profiles' upkeep (/debug/pprof; collector "profiles", docs/PROFILES.md).
  const AttributeRename profile = kept("profile", {"mutex", "block"});
  rows.push_back(own("jvmsight_profile_samples_total", counter,
                     "Waits kept in a contention profile (mutex: sampled by waiting time; block: parked threads seen "
                     "by the sampler); each stands for its estimate",
                     "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_stacks", gauge, "Distinct stacks a contention profile holds (at most 16,384)",
                     "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_stacks_dropped_total", counter,
                     "Waits at a stack not seen before that found the profile's stack table full (counted under the "
                     "\"[other]\" stack)",
                     "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_cpu_seconds_total", counter,
                     "CPU time the agent thread spent naming frames, sampling and building a contention profile",
                     "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_interval_seconds", gauge,
                     "Time between the block profile's looks at parked platform threads, now: its resolution (longer "
                     "while none are parked, while the same waits go on, or while a look costs more)",
                     "profiles", {kept("profile", {"block"})}));
}

}  // namespace jvmsight::catalogue
