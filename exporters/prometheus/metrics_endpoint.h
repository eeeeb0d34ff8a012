#pragma once
#include <vector>

#include "exporters/http/http_server.h"
#include "exporters/metrics_source.h"

namespace jvmsight {

// GET /metrics: asks the source for a fresh snapshot at scrape time;
// constant_labels go on every sample (a sample's own label of that name wins).
HttpRoute metrics_endpoint(MetricsSource source, std::vector<Label> constant_labels = {});

}  // namespace jvmsight
