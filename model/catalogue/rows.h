#pragma once
// The catalogue's rows, one file per area (each a declarative table, kept
// whole), and the helpers they are written with. Private to model/.
#include <string>
#include <vector>

#include "model/metric_catalogue.h"

namespace jvmsight::catalogue {

void add_thread_rows(std::vector<MetricDef>& rows);
void add_runtime_rows(std::vector<MetricDef>& rows);
void add_gc_rows(std::vector<MetricDef>& rows);
void add_agent_rows(std::vector<MetricDef>& rows);
void add_lock_graph_rows(std::vector<MetricDef>& rows);
void add_contention_rows(std::vector<MetricDef>& rows);

// A label sent under its own name, with its allowed values (empty: open).
AttributeRename kept(std::string label, std::vector<std::string> values = {});

// A family of the project's own (no convention covers it): sent over OTLP
// as "jvmsight." + its name without "jvmsight_", "_total" (counters) and
// "_seconds" (then unit s), so that a collector's Prometheus exporter
// (unit and _total suffixes added back) serves /metrics' name; every label
// kept.
MetricDef own(std::string name, MetricType type, std::string help, std::string collector,
              std::vector<AttributeRename> labels = {});

}  // namespace jvmsight::catalogue
