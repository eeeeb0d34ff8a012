#pragma once
// docs/METRICS.md's catalogue section, rendered from the metric catalogue:
// Prometheus and OTLP side by side, one table per collector. Checked by
// ctest (docs.metrics_catalogue); rewritten with
//   build/model/metric_docs --write docs/METRICS.md
#include <string>

namespace jvmsight {

// The section's text, markers included.
std::string render_metric_tables();

// Rows whose collector has no table in the section (they would be left
// out), one per line.
std::string unsectioned_rows();

// The document with its section replaced by render_metric_tables(); empty
// when the document has no markers.
std::string with_metric_tables(const std::string& document);

// Backticked metric names in the document (jvm_*, jvmsight_*, process_*)
// that no catalogue row serves, one per line.
std::string uncatalogued_names(const std::string& document);

}  // namespace jvmsight
