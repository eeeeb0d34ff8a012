#pragma once
// The one table from the model's family names (the Prometheus names /metrics
// serves) to OTLP names, units, instruments and attribute names. Semantic
// convention names where a convention exists (jvm.thread.count,
// jvm.gc.duration); everything else "jvmsight." + the family name without
// "jvmsight_", "_total" and "_seconds", so that a collector's Prometheus
// exporter (dots to underscores, unit and _total suffixes added back) serves
// the name /metrics serves. docs/OTLP.md prints this table.
#include <string>
#include <string_view>
#include <vector>

#include "model/telemetry.h"

namespace jvmsight::otlp {

enum class Instrument {
  gauge,          // a value read now
  updown_sum,     // non-monotonic cumulative sum (counts that go up and down)
  monotonic_sum,  // a counter
  histogram,      // explicit buckets
  summary,        // count and sum only (client_java's jvm_gc_collection_seconds)
};

struct AttributeRename {
  std::string label;      // model label
  std::string attribute;  // OTLP attribute
  bool lowercase_value = false;
};

struct OtlpName {
  std::string name;
  std::string unit;
  Instrument instrument = Instrument::gauge;
  std::vector<AttributeRename> attributes;  // labels not listed keep their name
};

// How one family is sent. Families the table does not list follow the rule
// above, with the instrument from their model type.
OtlpName otlp_name(const MetricFamily& family);

// The table's explicit rows, for docs and tests.
struct NameRow {
  std::string_view family;
  std::string_view name;
  std::string_view unit;
  Instrument instrument;
  std::vector<AttributeRename> attributes;
};
const std::vector<NameRow>& name_table();

}  // namespace jvmsight::otlp
