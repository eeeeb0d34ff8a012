#pragma once
// GET /: a small HTML page listing the endpoints, as jmx_exporter and
// client_java 1.x serve, so a person who opens the port finds their way.
#include <vector>

#include "exporters/http/http_server.h"

namespace jvmsight {

// The page lists routes (path and summary) in their order.
HttpRoute landing_page(const std::vector<HttpRoute>& routes);

}  // namespace jvmsight
