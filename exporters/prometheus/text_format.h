#pragma once
// The neutral model in the Prometheus text exposition format (0.0.4), via
// prometheus-cpp's serializer.
#include <string>

#include "model/telemetry.h"

namespace jvmsight {

inline constexpr const char* prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

std::string to_prometheus_text(const MetricFamilies& families);

}  // namespace jvmsight
