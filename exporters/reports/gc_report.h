#pragma once
// GET /gc as JSON: recent stop-the-world pauses and the span queue, so people
// (and tests) can see the spans before an OTLP exporter sends them.
#include <string>

#include "model/gc_report.h"

namespace jvmsight {

std::string gc_report_json(const GcReport& report);

}  // namespace jvmsight
