#pragma once
#include "exporters/http/http_server.h"
#include "exporters/metrics_source.h"

namespace jvmsight {

// GET /metrics: asks the source for a fresh snapshot at scrape time.
HttpRoute metrics_endpoint(MetricsSource source);

}  // namespace jvmsight
