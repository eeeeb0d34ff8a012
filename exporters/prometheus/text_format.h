#pragma once
// The neutral model in the Prometheus text exposition format (0.0.4), via
// our own writer (prometheus-cpp's, through an ostream, cost 0.3-0.5 ms
// per scrape at 30 KB).
#include <string>
#include <vector>

#include "model/telemetry.h"

namespace jvmsight {

inline constexpr const char* prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

// constant_labels go on every sample that has no label of that name.
std::string to_prometheus_text(const MetricFamilies& families, const std::vector<Label>& constant_labels = {});

}  // namespace jvmsight
