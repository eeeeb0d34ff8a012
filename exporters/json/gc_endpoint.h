#pragma once
// GET /gc: recent stop-the-world pauses and the span queue as JSON, so
// people (and tests) can see the spans before an OTLP exporter sends them.
#include <functional>
#include <optional>
#include <string>

#include "collectors/gc_report.h"
#include "exporters/http/http_server.h"

namespace jvmsight {

using GcReportSource = std::function<std::optional<GcReport>()>;

HttpRoute gc_endpoint(GcReportSource source);
std::string to_json(const GcReport& report);

}  // namespace jvmsight
