#include "exporters/otlp/metric_names.h"

#include <cctype>

namespace jvmsight::otlp {
namespace {

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Instrument instrument_of(MetricType type) {
  switch (type) {
    case MetricType::counter:
      return Instrument::monotonic_sum;
    case MetricType::histogram:
    case MetricType::summary:
      return Instrument::histogram;
    case MetricType::gauge:
      break;
  }
  return Instrument::gauge;
}

}  // namespace

std::optional<std::string> attribute_value(ValueStyle style, const std::string& value) {
  switch (style) {
    case ValueStyle::thread_state: {
      if (value == "UNKNOWN") return std::nullopt;
      std::string out = value;
      for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return out;
    }
    case ValueStyle::memory_type:
      return value == "nonheap" ? "non_heap" : value;
    case ValueStyle::boolean:
      if (value != "true" && value != "false") return std::nullopt;
      break;
    case ValueStyle::as_is:
      break;
  }
  return value;
}

// One row per family: longer than a function should be, and kept whole
// because a table is read as one (docs/OTLP.md prints it).
const std::vector<NameRow>& name_table() {  // NOLINT(readability-function-size): a declarative table
  // Thread counts and memory amounts are UpDownCounters in the conventions;
  // our other thread gauges keep gauge semantics (a collector's Prometheus
  // exporter serves both as gauges). Units in braces are annotations:
  // Prometheus adds no suffix. client_java's two generations of names
  // (0.x and 1.x) carry the same values: each is sent once, and what the
  // resource already says (jvm_info) not at all.
  const AttributeRename pool{"pool", "jvm.memory.pool.name"};
  const AttributeRename buffer_pool{"pool", "jvm.buffer.pool.name"};
  const AttributeRename area{"area", "jvm.memory.type", ValueStyle::memory_type};
  static const std::vector<NameRow> rows = {
      // The daemon split ranks first; jvm_threads_state carries
      // jvm.thread.count only where the daemon flag cannot be read (the
      // converter sends each OTLP name from its lowest-ranked family).
      {"jvmsight_threads_state_by_daemon",
       "jvm.thread.count",
       "{thread}",
       Instrument::updown_sum,
       {{"state", "jvm.thread.state", ValueStyle::thread_state}, {"daemon", "jvm.thread.daemon", ValueStyle::boolean}},
       integer},
      {"jvm_threads_state",
       "jvm.thread.count",
       "{thread}",
       Instrument::updown_sum,
       {{"state", "jvm.thread.state", ValueStyle::thread_state}},
       integer},
      {"jvmsight_gc_pause_seconds",
       "jvm.gc.duration",
       "s",
       Instrument::histogram,
       {{"gc", "jvm.gc.name"}, {"action", "jvm.gc.action"}, {"cause", "jvm.gc.cause"}},
       0,
       // The conventions' advised boundaries (model/jvm/metrics.yaml); the
       // model's finer ones stay on /metrics.
       {0.01, 0.1, 1, 10}},
      {"jvm_threads_current", "jvmsight.threads.current", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_daemon", "jvmsight.threads.daemon", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_peak", "jvmsight.threads.peak", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_started_total", "jvmsight.threads.started", "{thread}", Instrument::monotonic_sum, {}},
      {"jvm_threads_deadlocked", "jvmsight.threads.deadlocked", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_deadlocked_monitor", "jvmsight.threads.deadlocked_monitor", "{thread}", Instrument::gauge, {}},
      // client_java's summary (count and sum, no quantiles): a histogram with
      // no boundaries, one bucket, since OTLP advises against Summary.
      {"jvm_gc_collection_seconds", "jvmsight.gc.collection", "s", Instrument::histogram, {}},
      // No convention names pinning (semantic conventions 1.45.0, the OTel
      // Java agent's runtime metrics): ours, with the label as it is.
      {"jvmsight_virtual_thread_pinned_seconds", "jvmsight.virtual_thread.pinned", "s", Instrument::histogram, {}},
      // Memory: the conventions count per pool; area totals have none.
      {"jvm_memory_pool_used_bytes", "jvm.memory.used", "By", Instrument::updown_sum, {pool}, integer},
      {"jvm_memory_pool_committed_bytes", "jvm.memory.committed", "By", Instrument::updown_sum, {pool}, integer},
      {"jvm_memory_pool_max_bytes", "jvm.memory.limit", "By", Instrument::updown_sum, {pool}, defined_only | integer},
      {"jvm_memory_pool_init_bytes", "jvm.memory.init", "By", Instrument::updown_sum, {pool}, defined_only | integer},
      {"jvm_memory_pool_collection_used_bytes",
       "jvm.memory.used_after_last_gc",
       "By",
       Instrument::updown_sum,
       {pool},
       integer},
      {"jvm_memory_pool_collection_committed_bytes",
       "jvmsight.memory.committed_after_last_gc",
       "By",
       Instrument::gauge,
       {pool}},
      {"jvm_memory_pool_collection_max_bytes",
       "jvmsight.memory.limit_after_last_gc",
       "By",
       Instrument::gauge,
       {pool},
       defined_only},
      {"jvm_memory_pool_collection_init_bytes",
       "jvmsight.memory.init_after_last_gc",
       "By",
       Instrument::gauge,
       {pool},
       defined_only},
      {"jvm_memory_pool_allocated_bytes_total", "jvmsight.memory.allocated", "By", Instrument::monotonic_sum, {pool}},
      {"jvm_memory_used_bytes", "jvmsight.memory.area.used", "By", Instrument::gauge, {area}},
      {"jvm_memory_committed_bytes", "jvmsight.memory.area.committed", "By", Instrument::gauge, {area}},
      {"jvm_memory_max_bytes", "jvmsight.memory.area.limit", "By", Instrument::gauge, {area}, defined_only},
      {"jvm_memory_init_bytes", "jvmsight.memory.area.init", "By", Instrument::gauge, {area}, defined_only},
      {"jvm_memory_objects_pending_finalization",
       "jvmsight.memory.objects_pending_finalization",
       "{object}",
       Instrument::gauge,
       {}},
      {"jvm_buffer_pool_used_bytes", "jvm.buffer.memory.used", "By", Instrument::updown_sum, {buffer_pool}, integer},
      {"jvm_buffer_pool_capacity_bytes",
       "jvm.buffer.memory.limit",
       "By",
       Instrument::updown_sum,
       {buffer_pool},
       integer},
      {"jvm_buffer_pool_used_buffers", "jvm.buffer.count", "{buffer}", Instrument::updown_sum, {buffer_pool}, integer},
      {"jvm_classes_currently_loaded", "jvm.class.count", "{class}", Instrument::updown_sum, {}, integer},
      {"jvm_classes_loaded_total", "jvm.class.loaded", "{class}", Instrument::monotonic_sum, {}, integer},
      {"jvm_classes_unloaded_total", "jvm.class.unloaded", "{class}", Instrument::monotonic_sum, {}, integer},
      {"jvm_compilation_time_seconds_total", "jvmsight.compilation.time", "s", Instrument::monotonic_sum, {}},
      {"process_cpu_seconds_total", "jvm.cpu.time", "s", Instrument::monotonic_sum, {}},
      {"jvmsight_available_processors", "jvm.cpu.count", "{cpu}", Instrument::updown_sum, {}, integer},
      {"jvmsight_cpu_recent_utilization_ratio", "jvm.cpu.recent_utilization", "1", Instrument::gauge, {}},
      {"jvmsight_system_cpu_utilization_ratio", "jvm.system.cpu.utilization", "1", Instrument::gauge, {}},
      {"jvmsight_system_cpu_load_1m", "jvm.system.cpu.load_1m", "{run_queue_item}", Instrument::gauge, {}},
      {"process_start_time_seconds", "jvmsight.process.start_time", "s", Instrument::gauge, {}},
      {"process_open_fds",
       "process.unix.file_descriptor.count",
       "{file_descriptor}",
       Instrument::updown_sum,
       {},
       integer},
      {"process_max_fds", "jvmsight.process.max_fds", "{file_descriptor}", Instrument::gauge, {}},
      {"process_virtual_memory_bytes", "process.memory.virtual", "By", Instrument::updown_sum, {}, integer},
      {"process_resident_memory_bytes", "process.memory.usage", "By", Instrument::updown_sum, {}, integer},
      // Sent once, under the rows above (1.x names), or by the resource.
      {"jvm_memory_bytes_used", "", "", Instrument::gauge, {}},
      {"jvm_memory_bytes_committed", "", "", Instrument::gauge, {}},
      {"jvm_memory_bytes_max", "", "", Instrument::gauge, {}},
      {"jvm_memory_bytes_init", "", "", Instrument::gauge, {}},
      {"jvm_memory_pool_bytes_used", "", "", Instrument::gauge, {}},
      {"jvm_memory_pool_bytes_committed", "", "", Instrument::gauge, {}},
      {"jvm_memory_pool_bytes_max", "", "", Instrument::gauge, {}},
      {"jvm_memory_pool_bytes_init", "", "", Instrument::gauge, {}},
      {"jvm_classes_loaded", "", "", Instrument::gauge, {}},
      {"jvm_info", "", "", Instrument::gauge, {}},
      {"jvm_runtime_info", "", "", Instrument::gauge, {}},
  };
  return rows;
}

size_t table_rank(std::string_view family) {
  const auto& rows = name_table();
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i].family == family) return i;
  return rows.size();
}

OtlpName otlp_name(const MetricFamily& family) {
  for (const auto& row : name_table()) {
    if (row.family == family.name)
      return {std::string(row.name),           std::string(row.unit),      row.instrument, row.attributes,
              (row.flags & defined_only) != 0, (row.flags & integer) != 0, row.boundaries};
  }
  OtlpName out;
  out.instrument = instrument_of(family.type);
  std::string base = family.name;
  constexpr std::string_view prefix = "jvmsight_";
  if (base.rfind(prefix, 0) == 0) base = base.substr(prefix.size());
  if (out.instrument == Instrument::monotonic_sum && ends_with(base, "_total")) base.resize(base.size() - 6);
  if (ends_with(base, "_seconds")) {
    base.resize(base.size() - 8);
    out.unit = "s";
  }
  out.name = "jvmsight." + base;
  return out;
}

}  // namespace jvmsight::otlp
