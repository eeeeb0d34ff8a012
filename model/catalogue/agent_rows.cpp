// The agent itself and the OTLP exporter's own counters. Declarative
// tables: longer than a function should be, kept whole because a table is
// read as one.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {

void add_agent_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  constexpr auto gauge = MetricType::gauge;
  constexpr auto counter = MetricType::counter;
  // The agent itself.
  rows.push_back(own("jvmsight_collector_duration_seconds", gauge,
                     "Time each collector took on the agent thread for this scrape", "agent",
                     {kept("collector", {"threads", "thread_pools", "pinning", "gc", "safepoints", "runtime",
                                         "contention", "profiles", "lock_queue", "deadlocks", "lock_watch"})}));
  rows.push_back(
      own("jvmsight_scrape_duration_seconds", gauge, "Time the agent thread spent collecting this scrape", "agent"));
  rows.push_back(own("jvmsight_build_info", gauge, "jvmsight build and the JVM it runs in", "agent",
                     {kept("version"), kept("jdk"), kept("vm")}));
  // The OTLP exporter's own counters (only with OTLP on).
  const auto signal = kept("signal", {"metrics", "traces", "logs"});
  rows.push_back(own("jvmsight_otlp_exports_total", counter,
                     "OTLP items exported by signal and result: sent (accepted, maybe partly) or failed (given up); "
                     "a metrics item is one collection",
                     "otlp", {signal, kept("result", {"sent", "failed"})}));
  rows.push_back(own("jvmsight_otlp_dropped_total", counter,
                     "OTLP items dropped unsent because the signal's export queue was full", "otlp", {signal}));
  rows.push_back(own("jvmsight_otlp_retries_total", counter, "OTLP export attempts retried", "otlp", {signal}));
  rows.push_back(own("jvmsight_otlp_rejected_total", counter,
                     "Data points, spans or log records the collector rejected in partial successes", "otlp",
                     {signal}));
  rows.push_back(own("jvmsight_otlp_queue_length", gauge, "OTLP items waiting to be sent", "otlp", {signal}));
  rows.push_back(own("jvmsight_otlp_last_success_timestamp_seconds", gauge,
                     "Unix time of the last accepted OTLP export (0: none yet)", "otlp", {signal}));
}

}  // namespace jvmsight::catalogue
