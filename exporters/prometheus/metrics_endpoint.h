#pragma once
// GET /metrics: a fresh snapshot at every scrape, in the Prometheus text
// format. The endpoint runs on the HTTP server's thread; the snapshot comes
// from its MetricsSource (the agent's is AgentAnswers, agent/http_front.h,
// which collects on the agent thread and waits at most snapshot_timeout).
#include <optional>
#include <vector>

#include "exporters/http/http_server.h"
#include "model/telemetry.h"

namespace jvmsight {

class MetricsSource {
 public:
  virtual ~MetricsSource() = default;
  // Every family, collected now; nullopt when no snapshot could be had in
  // time (JVM busy or exiting), which the endpoint answers with 503, never
  // with zeros.
  virtual std::optional<MetricFamilies> metrics() = 0;
};

class MetricsEndpoint : public HttpEndpoint {
 public:
  // constant_labels go on every sample (a sample's own label of that name wins).
  MetricsEndpoint(MetricsSource& source, std::vector<Label> constant_labels)
      : source_(source), constant_labels_(std::move(constant_labels)) {}
  HttpResponse answer(const HttpRequest& request) override;

 private:
  MetricsSource& source_;
  const std::vector<Label> constant_labels_;
};

// The /metrics route; source must outlive the server.
HttpRoute metrics_endpoint(MetricsSource& source, std::vector<Label> constant_labels = {});

}  // namespace jvmsight
