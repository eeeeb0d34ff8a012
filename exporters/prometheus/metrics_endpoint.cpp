#include "exporters/prometheus/metrics_endpoint.h"

#include "exporters/prometheus/text_format.h"

namespace jvmsight {

HttpRoute metrics_endpoint(MetricsSource source) {
  return {"/metrics", [source = std::move(source)](const HttpRequest&) {
            auto families = source();
            if (!families) return busy_response();
            return HttpResponse{200, prometheus_content_type, to_prometheus_text(*families)};
          }};
}

}  // namespace jvmsight
