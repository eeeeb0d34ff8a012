#include "model/metric_catalogue.h"

#include <cctype>
#include <stdexcept>
#include <unordered_map>

#include "model/catalogue/rows.h"

namespace jvmsight {
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

struct Entry {
  size_t rank;
  bool v0;  // the name is the row's 0.x name
};

// Every name of every row (both generations) -> its row, built once.
const std::unordered_map<std::string_view, Entry>& index() {
  static const std::unordered_map<std::string_view, Entry> map = [] {
    std::unordered_map<std::string_view, Entry> out;
    const auto& rows = metric_catalogue();
    for (size_t i = 0; i < rows.size(); ++i) {
      out.emplace(rows[i].name, Entry{i, false});
      if (!rows[i].v0_name.empty()) out.emplace(rows[i].v0_name, Entry{i, true});
    }
    return out;
  }();
  return map;
}

}  // namespace

namespace catalogue {

AttributeRename kept(std::string label, std::vector<std::string> values) {
  std::string key = label;
  return {std::move(label), std::move(key), ValueStyle::as_is, std::move(values)};
}

MetricDef own(std::string name, MetricType type, std::string help, std::string collector,
              std::vector<AttributeRename> labels) {
  OtlpName otlp;
  otlp.instrument = instrument_of(type);
  otlp.attributes = std::move(labels);
  std::string base = name;
  constexpr std::string_view prefix = "jvmsight_";
  if (base.rfind(prefix, 0) == 0) base = base.substr(prefix.size());
  if (otlp.instrument == Instrument::monotonic_sum && ends_with(base, "_total")) base.resize(base.size() - 6);
  if (ends_with(base, "_seconds")) {
    base.resize(base.size() - 8);
    otlp.unit = "s";
  }
  otlp.name = "jvmsight." + base;
  return {std::move(name), "", type, std::move(help), std::move(collector), std::move(otlp), ""};
}

}  // namespace catalogue

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

const std::vector<MetricDef>& metric_catalogue() {
  static const std::vector<MetricDef> rows = [] {
    std::vector<MetricDef> out;
    catalogue::add_thread_rows(out);
    catalogue::add_runtime_rows(out);
    catalogue::add_gc_rows(out);
    catalogue::add_agent_rows(out);
    catalogue::add_lock_graph_rows(out);
    catalogue::add_contention_rows(out);
    return out;
  }();
  return rows;
}

const MetricDef* find_metric(std::string_view family) {
  auto it = index().find(family);
  return it == index().end() ? nullptr : &metric_catalogue()[it->second.rank];
}

size_t catalogue_rank(std::string_view family) {
  auto it = index().find(family);
  return it == index().end() ? metric_catalogue().size() : it->second.rank;
}

const OtlpName& otlp_of(std::string_view family) {
  static const OtlpName not_sent;
  auto it = index().find(family);
  if (it == index().end() || it->second.v0) return not_sent;  // 0.x names: sent once, under the 1.x row
  return metric_catalogue()[it->second.rank].otlp;
}

MetricFamily catalogued_family(std::string_view name) {
  auto it = index().find(name);
  if (it == index().end()) throw std::invalid_argument("metric family not in the catalogue: " + std::string(name));
  const MetricDef& row = metric_catalogue()[it->second.rank];
  const bool v0 = it->second.v0;
  return MetricFamily{std::string(name), v0 && !row.v0_help.empty() ? row.v0_help : row.help, row.type, {}};
}

}  // namespace jvmsight
