// The JVM runtime and process families (client_java's, and the CPU gauges
// the conventions count). Declarative tables: longer than a function should
// be, kept whole because a table is read as one.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {
namespace {

constexpr auto gauge = MetricType::gauge;
constexpr auto counter = MetricType::counter;
constexpr auto updown = Instrument::updown_sum;

// pool -> jvm.memory.pool.name, and the pool's type (from
// MemoryPoolMXBean.getType()), an attribute /metrics does not show.
std::vector<AttributeRename> pool_attributes() {
  return {{"pool", "jvm.memory.pool.name"}, {"", "jvm.memory.type", ValueStyle::as_is, {"heap", "non_heap"}}};
}

// One MemoryUsage field of the pools: client_java renamed them in 1.x.
MetricDef pool_usage(std::string v1, std::string v0, std::string help, OtlpName otlp) {
  otlp.attributes = pool_attributes();
  return {std::move(v1), std::move(v0), gauge, std::move(help), "runtime", std::move(otlp)};
}

// Same name in both generations; only pools the GC reports on.
MetricDef after_gc(std::string name, std::string help, OtlpName otlp) {
  otlp.attributes = pool_attributes();
  return {std::move(name), "", gauge, std::move(help), "runtime", std::move(otlp)};
}

// The heap and non-heap totals: the conventions count per pool only.
MetricDef area_usage(std::string v1, std::string v0, std::string help, std::string otlp, bool defined_only) {
  return {std::move(v1),
          std::move(v0),
          gauge,
          std::move(help),
          "runtime",
          {std::move(otlp),
           "By",
           Instrument::gauge,
           double_value,
           {{"area", "jvm.memory.type", ValueStyle::memory_type, {"heap", "nonheap"}}},
           defined_only}};
}

MetricDef buffer_pool(std::string name, std::string help, std::string otlp, std::string unit) {
  return {std::move(name), "",
          gauge,           std::move(help),
          "runtime",       {std::move(otlp), std::move(unit), updown, int_value, {{"pool", "jvm.buffer.pool.name"}}}};
}

}  // namespace

void add_runtime_rows(std::vector<MetricDef>& rows) {  // NOLINT(readability-function-size): a declarative table
  // What the resource already says (process.runtime.*): not sent over OTLP.
  rows.push_back({"jvm_runtime_info",
                  "jvm_info",
                  gauge,
                  "JVM runtime info",
                  "runtime",
                  {"", "", Instrument::gauge, double_value, {kept("version"), kept("vendor"), kept("runtime")}},
                  "VM version info"});
  rows.push_back(pool_usage("jvm_memory_pool_used_bytes", "jvm_memory_pool_bytes_used",
                            "Used bytes of a given JVM memory pool.", {"jvm.memory.used", "By", updown, int_value}));
  rows.push_back(pool_usage("jvm_memory_pool_committed_bytes", "jvm_memory_pool_bytes_committed",
                            "Committed bytes of a given JVM memory pool.",
                            {"jvm.memory.committed", "By", updown, int_value}));
  rows.push_back(pool_usage("jvm_memory_pool_max_bytes", "jvm_memory_pool_bytes_max",
                            "Max bytes of a given JVM memory pool.",
                            {"jvm.memory.limit", "By", updown, int_value, {}, true}));
  rows.push_back(pool_usage("jvm_memory_pool_init_bytes", "jvm_memory_pool_bytes_init",
                            "Initial bytes of a given JVM memory pool.",
                            {"jvm.memory.init", "By", updown, int_value, {}, true}));
  rows.push_back(after_gc("jvm_memory_pool_collection_used_bytes",
                          "Used bytes after last collection of a given JVM memory pool.",
                          {"jvm.memory.used_after_last_gc", "By", updown, int_value}));
  rows.push_back(after_gc("jvm_memory_pool_collection_committed_bytes",
                          "Committed after last collection bytes of a given JVM memory pool.",
                          {"jvmsight.memory.committed_after_last_gc", "By", Instrument::gauge, double_value}));
  rows.push_back(after_gc("jvm_memory_pool_collection_max_bytes",
                          "Max bytes after last collection of a given JVM memory pool.",
                          {"jvmsight.memory.limit_after_last_gc", "By", Instrument::gauge, double_value, {}, true}));
  rows.push_back(after_gc("jvm_memory_pool_collection_init_bytes",
                          "Initial after last collection bytes of a given JVM memory pool.",
                          {"jvmsight.memory.init_after_last_gc", "By", Instrument::gauge, double_value, {}, true}));
  rows.push_back(area_usage("jvm_memory_used_bytes", "jvm_memory_bytes_used", "Used bytes of a given JVM memory area.",
                            "jvmsight.memory.area.used", false));
  rows.push_back(area_usage("jvm_memory_committed_bytes", "jvm_memory_bytes_committed",
                            "Committed (bytes) of a given JVM memory area.", "jvmsight.memory.area.committed", false));
  rows.push_back(area_usage("jvm_memory_max_bytes", "jvm_memory_bytes_max", "Max (bytes) of a given JVM memory area.",
                            "jvmsight.memory.area.limit", true));
  rows.push_back(area_usage("jvm_memory_init_bytes", "jvm_memory_bytes_init",
                            "Initial bytes of a given JVM memory area.", "jvmsight.memory.area.init", true));
  rows.push_back({"jvm_memory_objects_pending_finalization",
                  "",
                  gauge,
                  "The number of objects waiting in the finalizer queue.",
                  "runtime",
                  {"jvmsight.memory.objects_pending_finalization", "{object}", Instrument::gauge, double_value}});
  rows.push_back(buffer_pool("jvm_buffer_pool_used_bytes", "Used bytes of a given JVM buffer pool.",
                             "jvm.buffer.memory.used", "By"));
  rows.push_back(buffer_pool("jvm_buffer_pool_capacity_bytes", "Bytes capacity of a given JVM buffer pool.",
                             "jvm.buffer.memory.limit", "By"));
  rows.push_back(buffer_pool("jvm_buffer_pool_used_buffers", "Used buffers of a given JVM buffer pool.",
                             "jvm.buffer.count", "{buffer}"));
  // 0.x up to 0.11 called the gauge jvm_classes_loaded; 0.12 renamed it
  // (OpenMetrics reads that name as the counter below).
  rows.push_back({"jvm_classes_currently_loaded",
                  "jvm_classes_loaded",
                  gauge,
                  "The number of classes that are currently loaded in the JVM",
                  "runtime",
                  {"jvm.class.count", "{class}", updown, int_value}});
  rows.push_back({"jvm_classes_loaded_total",
                  "",
                  counter,
                  "The total number of classes that have been loaded since the JVM has started execution",
                  "runtime",
                  {"jvm.class.loaded", "{class}", Instrument::monotonic_sum, int_value}});
  rows.push_back({"jvm_classes_unloaded_total",
                  "",
                  counter,
                  "The total number of classes that have been unloaded since the JVM has started execution",
                  "runtime",
                  {"jvm.class.unloaded", "{class}", Instrument::monotonic_sum, int_value}});
  rows.push_back({"jvm_compilation_time_seconds_total",
                  "",
                  counter,
                  "The total time in seconds taken for HotSpot class compilation",
                  "runtime",
                  {"jvmsight.compilation.time", "s", Instrument::monotonic_sum, double_value}});
  // Not client_java's: what the OpenTelemetry Java agent reads for
  // jvm.cpu.count, jvm.cpu.recent_utilization and the jvm.system.cpu pair.
  rows.push_back({"jvmsight_available_processors",
                  "",
                  gauge,
                  "Processors available to the JVM (Runtime.availableProcessors).",
                  "runtime",
                  {"jvm.cpu.count", "{cpu}", updown, int_value}});
  rows.push_back({"jvmsight_cpu_recent_utilization_ratio",
                  "",
                  gauge,
                  "Recent CPU utilization of the JVM process, 0 to 1 (OperatingSystemMXBean.getProcessCpuLoad).",
                  "runtime",
                  {"jvm.cpu.recent_utilization", "1", Instrument::gauge, double_value}});
  rows.push_back({"jvmsight_system_cpu_utilization_ratio",
                  "",
                  gauge,
                  "Recent CPU utilization of the whole system, 0 to 1, as the JVM reports it.",
                  "runtime",
                  {"jvm.system.cpu.utilization", "1", Instrument::gauge, double_value}});
  rows.push_back({"jvmsight_system_cpu_load_1m",
                  "",
                  gauge,
                  "System load average over the last minute (OperatingSystemMXBean.getSystemLoadAverage).",
                  "runtime",
                  {"jvm.system.cpu.load_1m", "{run_queue_item}", Instrument::gauge, double_value}});
  rows.push_back({"process_cpu_seconds_total",
                  "",
                  counter,
                  "Total user and system CPU time spent in seconds.",
                  "runtime",
                  {"jvm.cpu.time", "s", Instrument::monotonic_sum, double_value}});
  rows.push_back({"process_start_time_seconds",
                  "",
                  gauge,
                  "Start time of the process since unix epoch in seconds.",
                  "runtime",
                  {"jvmsight.process.start_time", "s", Instrument::gauge, double_value}});
  rows.push_back({"process_open_fds",
                  "",
                  gauge,
                  "Number of open file descriptors.",
                  "runtime",
                  {"process.unix.file_descriptor.count", "{file_descriptor}", updown, int_value}});
  rows.push_back({"process_max_fds",
                  "",
                  gauge,
                  "Maximum number of open file descriptors.",
                  "runtime",
                  {"jvm.file_descriptor.limit", "{file_descriptor}", updown, int_value}});
  rows.push_back({"process_virtual_memory_bytes",
                  "",
                  gauge,
                  "Virtual memory size in bytes.",
                  "runtime",
                  {"process.memory.virtual", "By", updown, int_value}});
  rows.push_back({"process_resident_memory_bytes",
                  "",
                  gauge,
                  "Resident memory size in bytes.",
                  "runtime",
                  {"process.memory.usage", "By", updown, int_value}});
  rows.push_back(own("jvmsight_process_cpu_age_seconds", gauge,
                     "Age of the process CPU time served in this collection (gathered in the background)", "runtime"));
  rows.push_back(own("jvmsight_process_cpu_refresh_seconds", gauge,
                     "CPU time the agent thread last spent gathering the process CPU time", "runtime"));
  // HotSpot's safepoint counters (no convention names them).
  rows.push_back({"jvmsight_safepoints_total",
                  "",
                  counter,
                  "Safepoints the JVM has reached: stops of every application thread, for GC or any other VM "
                  "operation (HotSpot's sun.rt.safepoints)",
                  "safepoints",
                  {"jvmsight.safepoints", "{safepoint}", Instrument::monotonic_sum, int_value}});
  rows.push_back({"jvmsight_safepoint_seconds_total",
                  "",
                  counter,
                  "Time the application threads stood still for safepoints, from each safepoint's request to its "
                  "end, reaching it included",
                  "safepoints",
                  {"jvmsight.safepoint", "s", Instrument::monotonic_sum, double_value}});
  rows.push_back({"jvmsight_safepoint_sync_seconds_total",
                  "",
                  counter,
                  "Time spent reaching safepoints: from each request until every application thread had stopped "
                  "(HotSpot's sun.rt.safepointSyncTime)",
                  "safepoints",
                  {"jvmsight.safepoint.sync", "s", Instrument::monotonic_sum, double_value}});
}

}  // namespace jvmsight::catalogue
