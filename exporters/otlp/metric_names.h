#pragma once
// The one table from the model's family names (the Prometheus names /metrics
// serves) to OTLP names, units, instruments and attribute names. Semantic
// convention names where a convention exists (jvm.thread.count,
// jvm.gc.duration); everything else "jvmsight." + the family name without
// "jvmsight_", "_total" and "_seconds", so that a collector's Prometheus
// exporter (dots to underscores, unit and _total suffixes added back) serves
// the name /metrics serves. docs/OTLP.md prints this table.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/telemetry.h"

namespace jvmsight::otlp {

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

struct AttributeRename {
  std::string label;      // model label
  std::string attribute;  // OTLP attribute
  ValueStyle style = ValueStyle::as_is;
};

// The attribute value for a label value; nullopt: the data point is not sent.
std::optional<std::string> attribute_value(ValueStyle style, const std::string& value);

struct OtlpName {
  std::string name;  // empty: the family is not sent (another one carries it)
  std::string unit;
  Instrument instrument = Instrument::gauge;
  std::vector<AttributeRename> attributes;  // labels not listed keep their name
  bool defined_only = false;                // a negative value means undefined (MemoryUsage max -1): not sent
  bool integer = false;                     // sent as_int: the conventions' metric_value_type int
  std::vector<double> boundaries;           // histograms: the convention's advised buckets (empty: the model's)
};

// A row's flags.
enum NameFlags : unsigned {
  defined_only = 1,  // OtlpName::defined_only
  integer = 2,       // OtlpName::integer
};

// How one family is sent. Families the table does not list follow the rule
// above, with the instrument from their model type.
OtlpName otlp_name(const MetricFamily& family);

// The table's explicit rows, for docs and tests.
struct NameRow {
  std::string_view family;
  std::string_view name;  // empty: not sent
  std::string_view unit;
  Instrument instrument;
  std::vector<AttributeRename> attributes;
  unsigned flags = 0;              // NameFlags
  std::vector<double> boundaries;  // OtlpName::boundaries
};
const std::vector<NameRow>& name_table();
// The family's row in the table (its size when not listed): when two
// families map to one OTLP name, the lower rank is sent.
size_t table_rank(std::string_view family);

}  // namespace jvmsight::otlp
