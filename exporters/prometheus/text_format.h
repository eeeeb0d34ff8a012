#pragma once
// The neutral model in the Prometheus text exposition format (0.0.4),
// appended to one string (no ostream, no printf: a scrape's text is written
// in a fraction of a millisecond; BENCHMARKS.md).
#include <string>
#include <vector>

#include "model/telemetry.h"

namespace jvmsight {

inline constexpr const char* prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

// constant_labels go on every sample that has no label of that name.
std::string to_prometheus_text(const MetricFamilies& families, const std::vector<Label>& constant_labels = {});

}  // namespace jvmsight
