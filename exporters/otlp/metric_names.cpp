#include "exporters/otlp/metric_names.h"

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
      return Instrument::histogram;
    case MetricType::summary:
      return Instrument::summary;
    case MetricType::gauge:
      break;
  }
  return Instrument::gauge;
}

}  // namespace

const std::vector<NameRow>& name_table() {
  // Thread counts are UpDownCounters in the conventions; our other thread
  // gauges keep gauge semantics (a collector's Prometheus exporter serves both
  // as gauges). Units in braces are annotations: Prometheus adds no suffix.
  static const std::vector<NameRow> rows = {
      {"jvm_threads_state",
       "jvm.thread.count",
       "{thread}",
       Instrument::updown_sum,
       {{"state", "jvm.thread.state", true}}},
      {"jvmsight_gc_pause_seconds", "jvm.gc.duration", "s", Instrument::histogram, {{"gc", "jvm.gc.name", false}}},
      {"jvm_threads_current", "jvmsight.threads.current", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_daemon", "jvmsight.threads.daemon", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_peak", "jvmsight.threads.peak", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_started_total", "jvmsight.threads.started", "{thread}", Instrument::monotonic_sum, {}},
      {"jvm_threads_deadlocked", "jvmsight.threads.deadlocked", "{thread}", Instrument::gauge, {}},
      {"jvm_threads_deadlocked_monitor", "jvmsight.threads.deadlocked_monitor", "{thread}", Instrument::gauge, {}},
      {"jvm_gc_collection_seconds", "jvmsight.gc.collection", "s", Instrument::summary, {}},
  };
  return rows;
}

OtlpName otlp_name(const MetricFamily& family) {
  for (const auto& row : name_table()) {
    if (row.family == family.name)
      return {std::string(row.name), std::string(row.unit), row.instrument, row.attributes};
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
