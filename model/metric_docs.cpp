#include "model/metric_docs.h"

#include <regex>
#include <set>
#include <vector>

#include "model/metric_catalogue.h"

namespace jvmsight {
namespace {

constexpr const char* begin_marker = "<!-- BEGIN metric catalogue -->";
constexpr const char* end_marker = "<!-- END metric catalogue -->";

// The collectors in the order the document shows them, with a heading.
struct Section {
  const char* collector;
  const char* heading;
};
constexpr Section sections[] = {
    {"threads", "Threads"},
    {"thread_pools", "Thread pools"},
    {"pinning", "Virtual-thread pinning"},
    {"deadlocks", "Deadlocks"},
    {"lock_watch", "Lock-order inversions and stuck threads"},
    {"contention", "Monitor contention and Object.wait"},
    {"lock_queue", "Lock holders and j.u.c. locks"},
    {"profiles", "Contention profiles (/debug/pprof)"},
    {"gc", "GC"},
    {"safepoints", "Safepoints"},
    {"runtime", "JVM runtime and process"},
    {"agent", "The agent itself"},
    {"otlp", "The OTLP exporter (only with OTLP on)"},
};

const char* instrument_name(Instrument i) {
  switch (i) {
    case Instrument::updown_sum:
      return "UpDownCounter";
    case Instrument::monotonic_sum:
      return "Counter";
    case Instrument::histogram:
      return "Histogram";
    case Instrument::gauge:
      break;
  }
  return "Gauge";
}

const char* style_note(ValueStyle s) {
  switch (s) {
    case ValueStyle::thread_state:
      return ", sent lower case";
    case ValueStyle::memory_type:
      return ", `nonheap` sent as `non_heap`";
    case ValueStyle::boolean:
      return ", a boolean";
    case ValueStyle::as_is:
      break;
  }
  return "";
}

std::string attributes_cell(const OtlpName& otlp) {
  std::string out;
  for (const auto& a : otlp.attributes) {
    if (!out.empty()) out += "; ";
    if (a.label.empty())
      out += "OTLP only: `" + a.attribute + "`";
    else if (a.label == a.attribute || otlp.name.empty())
      out += "`" + a.label + "`";
    else
      out += "`" + a.label + "` → `" + a.attribute + "`";
    std::string values;
    for (const auto& v : a.values) values += (values.empty() ? "`" : ", `") + v + "`";
    if (!values.empty() || a.style != ValueStyle::as_is) out += " (" + values + style_note(a.style) + ")";
    for (const auto& v : a.values)
      if (!otlp.name.empty() && !attribute_value(a.style, v)) out += ", a `" + v + "` point is not sent";
  }
  return out;
}

std::string row_line(const MetricDef& row) {
  const OtlpName& o = row.otlp;
  std::string line = "| `" + row.name + "` | " + (row.v0_name.empty() ? "same" : "`" + row.v0_name + "`") + " | " +
                     type_name(row.type) + " | ";
  if (o.name.empty()) {
    line += "not sent | | | | ";
  } else {
    line += "`" + o.name + "` | " + instrument_name(o.instrument) + " | " + (o.unit.empty() ? "" : "`" + o.unit + "`") +
            " | " + (o.integer ? "int" : "double") + " | ";
  }
  return line + attributes_cell(o) + " | " + row.help + " |\n";
}

}  // namespace

std::string render_metric_tables() {
  std::string out = std::string(begin_marker) + "\n";
  // A collector missing from `sections` still gets a table (headed by its
  // name), so the document check notices its families.
  std::vector<Section> all(std::begin(sections), std::end(sections));
  std::set<std::string> listed;
  for (const auto& section : sections) listed.insert(section.collector);
  for (const auto& row : metric_catalogue())
    if (listed.insert(row.collector).second) all.push_back({row.collector.c_str(), row.collector.c_str()});
  for (const auto& section : all) {
    out += "\n### " + std::string(section.heading) + "\n\n";
    out +=
        "| Prometheus | client_java 0.x | type | OTLP | instrument | unit | value | labels → attributes (allowed "
        "values) | help |\n|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& row : metric_catalogue())
      if (row.collector == section.collector) out += row_line(row);
  }
  return out + "\n" + end_marker + "\n";
}

std::string unsectioned_rows() {
  std::string out;
  for (const auto& row : metric_catalogue()) {
    bool listed = false;
    for (const auto& section : sections) listed = listed || row.collector == section.collector;
    if (!listed) out += row.name + " (collector " + row.collector + ")\n";
  }
  return out;
}

std::string with_metric_tables(const std::string& document) {
  const size_t begin = document.find(begin_marker);
  const size_t end = document.find(end_marker);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return "";
  size_t after = end + std::string(end_marker).size();
  if (after < document.size() && document[after] == '\n') ++after;
  return document.substr(0, begin) + render_metric_tables() + document.substr(after);
}

std::string uncatalogued_names(const std::string& document) {
  static const std::regex name(R"(`((?:jvm|jvmsight|process)_[a-z0-9_]*[a-z0-9])(?:\{[^`]*\})?`)");
  std::set<std::string> missing;
  for (auto it = std::sregex_iterator(document.begin(), document.end(), name); it != std::sregex_iterator(); ++it) {
    std::string n = (*it)[1];
    if (find_metric(n) != nullptr) continue;
    // A histogram's or summary's series.
    bool series = false;
    for (const char* suffix : {"_bucket", "_count", "_sum"}) {
      const std::string s = suffix;
      if (n.size() > s.size() && n.compare(n.size() - s.size(), s.size(), s) == 0) {
        const MetricDef* row = find_metric(n.substr(0, n.size() - s.size()));
        series = series || (row != nullptr && row->type != MetricType::gauge && row->type != MetricType::counter);
      }
    }
    if (!series) missing.insert(n);
  }
  std::string out;
  for (const auto& n : missing) out += n + "\n";
  return out;
}

}  // namespace jvmsight
