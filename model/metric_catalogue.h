#pragma once
// The metric catalogue: every family the agent serves, one row each, read by
// both exporters and by docs/METRICS.md (its tables are generated from it by
// model/metric_docs: build/model/metric_docs --write docs/METRICS.md). A row
// holds the Prometheus side (the family name /metrics serves, client_java
// 0.x's name where it differs, type, help, the collector that produces it)
// and the OTLP side (name, unit, instrument, value type, attributes with
// their allowed values, advised buckets). Collectors create families only
// through add_family(out, name), which takes type and help from here and
// refuses a name the catalogue lacks. Units and instruments of jvm.* rows
// are semantic-conventions facts (model/jvm/metrics.yaml).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/telemetry.h"

namespace jvmsight {

enum class Instrument {
  gauge,          // a value read now
  updown_sum,     // non-monotonic cumulative sum (counts that go up and down)
  monotonic_sum,  // a counter
  histogram,      // explicit buckets (a model summary: one bucket, its count and sum)
};

// How a label's value is written as an attribute value.
enum class ValueStyle {
  as_is,
  thread_state,  // NEW -> new ...; client_java's UNKNOWN is no convention value: not sent
  memory_type,   // heap -> heap, nonheap -> non_heap (jvm.memory.type)
  boolean,       // "true"/"false" sent as a boolean attribute (jvm.thread.daemon)
};

// The attribute value for a label value; nullopt: the data point is not sent.
std::optional<std::string> attribute_value(ValueStyle style, const std::string& value);

struct AttributeRename {
  std::string label;      // Prometheus label; empty: an OTLP-only attribute (Sample::otlp_attributes)
  std::string attribute;  // OTLP attribute key
  ValueStyle style = ValueStyle::as_is;
  std::vector<std::string> values;  // the label's allowed values (as /metrics shows them); empty: open
};

// How a family is sent over OTLP.
struct OtlpName {
  std::string name;  // empty: not sent (another row or the resource carries it)
  std::string unit;
  Instrument instrument = Instrument::gauge;
  bool integer = false;                     // sent as_int: the conventions' metric_value_type int
  std::vector<AttributeRename> attributes;  // every label, with its OTLP key
  bool defined_only = false;                // a negative value means undefined (MemoryUsage max -1): not sent
  std::vector<double> boundaries;           // histograms: the convention's advised buckets (empty: the model's)
};
constexpr bool int_value = true, double_value = false;

struct MetricDef {
  std::string name;     // what /metrics serves (client_java 1.x's name where the generations differ)
  std::string v0_name;  // client_java 0.x's (simpleclient) name where it differs, else empty
  MetricType type = MetricType::gauge;
  std::string help;
  std::string collector;  // what produces it: a CollectorSet name, "agent" or "otlp"
  OtlpName otlp;
  std::string v0_help;  // 0.x's help where it differs, else empty
};

const std::vector<MetricDef>& metric_catalogue();

// The row serving this family name (either generation's), or null.
const MetricDef* find_metric(std::string_view family);
// The row's position: when two rows share an OTLP name, the first is sent.
size_t catalogue_rank(std::string_view family);
// The OTLP side of a family; a 0.x name or an uncatalogued one: not sent.
const OtlpName& otlp_of(std::string_view family);

// A family of the catalogue, named, typed and described from its row.
// Throws std::invalid_argument for a name the catalogue lacks.
MetricFamily catalogued_family(std::string_view name);
inline MetricFamily& add_family(MetricFamilies& out, std::string_view name) {
  out.push_back(catalogued_family(name));
  return out.back();
}

}  // namespace jvmsight
