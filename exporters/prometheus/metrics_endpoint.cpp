#include "exporters/prometheus/metrics_endpoint.h"

#include "exporters/prometheus/text_format.h"

namespace jvmsight {

HttpResponse MetricsEndpoint::answer(const HttpRequest&) {
  std::optional<MetricFamilies> families = source_.metrics();
  if (!families) return busy_response();
  return {200, prometheus_content_type, to_prometheus_text(*families, constant_labels_)};
}

HttpRoute metrics_endpoint(MetricsSource& source, std::vector<Label> constant_labels) {
  return {"/metrics", std::make_shared<MetricsEndpoint>(source, std::move(constant_labels)),
          "metrics in the Prometheus text format"};
}

}  // namespace jvmsight
