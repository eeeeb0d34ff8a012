#include "exporters/prometheus/metrics_endpoint.h"

#include "exporters/prometheus/text_format.h"

namespace jvmsight {
namespace {

HttpResponse exposition(const MetricFamilies& families) {
  return {200, prometheus_content_type, to_prometheus_text(families)};
}

}  // namespace

HttpRoute metrics_endpoint(MetricsSource source) {
  return snapshot_route<MetricFamilies>("/metrics", std::move(source), exposition);
}

}  // namespace jvmsight
