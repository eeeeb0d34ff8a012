#include "exporters/prometheus/metrics_endpoint.h"

#include "exporters/prometheus/text_format.h"

namespace jvmsight {

HttpRoute metrics_endpoint(MetricsSource source) {
  return {"/metrics", [source = std::move(source)](const HttpRequest&) {
            auto families = source();
            if (!families) return HttpResponse{503, "text/plain; charset=utf-8", "JVM busy or exiting; try again\n"};
            return HttpResponse{200, prometheus_content_type, to_prometheus_text(*families)};
          }};
}

}  // namespace jvmsight
