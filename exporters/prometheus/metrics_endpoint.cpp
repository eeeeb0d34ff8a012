#include "exporters/prometheus/metrics_endpoint.h"

#include "exporters/prometheus/text_format.h"

namespace jvmsight {

HttpRoute metrics_endpoint(MetricsSource source, std::vector<Label> constant_labels) {
  return snapshot_route<MetricFamilies>(
      "/metrics", "metrics in the Prometheus text format", std::move(source),
      [labels = std::move(constant_labels)](const MetricFamilies& families) {
        return HttpResponse{200, prometheus_content_type, to_prometheus_text(families, labels)};
      });
}

}  // namespace jvmsight
