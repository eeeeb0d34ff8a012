// GC: pauses, collections, allocation and concurrent cycles. Declarative
// tables: longer than a function should be, kept whole because a table is
// read as one.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {

void add_gc_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  constexpr auto gauge = MetricType::gauge;
  constexpr auto counter = MetricType::counter;
  const auto gc = kept("gc");
  rows.push_back({"jvmsight_gc_pause_seconds",
                  "",
                  MetricType::histogram,
                  "Stop-the-world GC pauses timed by JVM TI GarbageCollectionStart/Finish, by collector and action "
                  "(\"unknown\" when no GC notification matched the pause)",
                  "gc",
                  {"jvm.gc.duration",
                   "s",
                   Instrument::histogram,
                   double_value,
                   {{"gc", "jvm.gc.name"}, {"action", "jvm.gc.action"}, {"cause", "jvm.gc.cause"}},
                   false,
                   // The conventions' advised boundaries (model/jvm/metrics.yaml);
                   // the model's finer ones stay on /metrics.
                   {0.01, 0.1, 1, 10}}});
  // client_java's summary (count and sum, no quantiles): over OTLP a
  // histogram with no boundaries, one bucket, since OTLP advises against
  // Summary.
  rows.push_back({"jvm_gc_collection_seconds",
                  "",
                  MetricType::summary,
                  "Time spent in a given JVM garbage collector in seconds.",
                  "gc",
                  {"jvmsight.gc.collection", "s", Instrument::histogram, double_value, {gc}}});
  rows.push_back({"jvm_memory_pool_allocated_bytes_total",
                  "",
                  counter,
                  "Total bytes allocated in a given JVM memory pool. Only updated after GC, not continuously.",
                  "gc",
                  {"jvmsight.memory.allocated",
                   "By",
                   Instrument::monotonic_sum,
                   double_value,
                   {{"pool", "jvm.memory.pool.name"}}}});
  rows.push_back(own("jvmsight_gc_concurrent_cycle_seconds", MetricType::summary,
                     "Concurrent GC cycles (ZGC, Shenandoah) and their wall time, from the cycle collector's MXBean; "
                     "mostly concurrent work, never counted as pause time",
                     "gc", {gc}));
  rows.push_back(own("jvmsight_gc_pause_events_supported", gauge,
                     "1 if the JVM sends JVM TI GarbageCollectionStart/Finish to the agent, else 0", "gc"));
  rows.push_back(own("jvmsight_gc_notifications_enabled", gauge,
                     "1 if pauses are attributed with GC notifications (collector, action, cause), else 0 (option "
                     "gc_notifications)",
                     "gc"));
  rows.push_back(own("jvmsight_gc_pause_collections_total", counter,
                     "Collections (GC notifications) that fell inside a measured pause, by collector; one pause may "
                     "hold several (e.g. Parallel's System.gc(): scavenge then full)",
                     "gc", {gc}));
  rows.push_back(own("jvmsight_gc_notifications_unmatched_total", counter,
                     "GC notifications of stop-the-world collectors that fell inside no measured pause", "gc"));
  rows.push_back(own("jvmsight_gc_pause_max_seconds", gauge,
                     "Longest stop-the-world GC pause since the previous scrape (0 if none)", "gc"));
  rows.push_back(own("jvmsight_gc_pause_events_dropped_total", counter,
                     "Pauses lost because the agent thread did not drain the pause buffer in time", "gc"));
  rows.push_back(
      own("jvmsight_gc_spans_dropped_total", counter, "GC pause spans dropped because the span queue was full", "gc"));
}

}  // namespace jvmsight::catalogue
