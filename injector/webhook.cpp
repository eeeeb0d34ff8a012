#include "injector/webhook.h"

#include <exception>

#include "common/log.h"
#include "exporters/prometheus/text_format.h"
#include "injector/admission.h"
#include "model/telemetry.h"

namespace jvmsight::injector {

void InjectorMetrics::skipped(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++skips_[reason];
}

void InjectorMetrics::error(const char* kind) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++errors_[kind];
}

std::string InjectorMetrics::prometheus_text() const {
  std::lock_guard<std::mutex> lock(mutex_);
  MetricFamilies families;
  add_sample(add_uncatalogued_family(families, "jvmsight_injector_reviews_total", MetricType::counter,
                                     "AdmissionReviews answered, malformed ones included"),
             static_cast<double>(reviews_));
  add_sample(add_uncatalogued_family(families, "jvmsight_injector_injections_total", MetricType::counter,
                                     "Pods given the agent (a patch was returned)"),
             static_cast<double>(injections_));
  auto& skips = add_uncatalogued_family(families, "jvmsight_injector_skips_total", MetricType::counter,
                                        "Pods admitted without the agent, by reason");
  for (const auto& [reason, n] : skips_) add_sample(skips, static_cast<double>(n), {{"reason", reason}});
  auto& errors =
      add_uncatalogued_family(families, "jvmsight_injector_errors_total", MetricType::counter,
                              "Reviews that failed: malformed (answered 400) or internal (admitted unpatched)");
  for (const auto& [kind, n] : errors_) add_sample(errors, static_cast<double>(n), {{"kind", kind}});
  return to_prometheus_text(families);
}

HttpResponse mutate(const HttpRequest& request, bool namespace_opted_in, const InjectorConfig& config,
                    InjectorMetrics& metrics) {
  metrics.reviewed();
  AdmissionRequest review;
  std::string problem = parse_admission_review(request.body, review);
  if (!problem.empty()) {
    metrics.error("malformed");
    log::warn("mutate: 400 to ", request.remote_addr, ": ", problem);
    return plain_response(400, "not an AdmissionReview v1: " + problem + "\n");
  }
  AdmissionDecision decision;
  try {
    decision = decide(review, namespace_opted_in, config);
  } catch (const std::exception& e) {
    // Never block a pod: admitted as it came, and counted.
    metrics.error("internal");
    log::error("mutate: internal error, pod admitted without the agent: ", e.what());
    decision = AdmissionDecision{};
    decision.skip_reason = "internal_error";
    decision.warnings = {"jvmsight: internal error in the injector; pod admitted without the agent"};
  }
  if (decision.injected)
    metrics.injected();
  else
    metrics.skipped(decision.skip_reason);
  for (const auto& w : decision.warnings) log::info("mutate ", review.uid, ": ", w);
  return {200, json_content_type, admission_response(review.uid, decision)};
}

namespace {

class MutateEndpoint : public HttpEndpoint {
 public:
  MutateEndpoint(bool namespace_opted_in, const InjectorConfig& config, InjectorMetrics& metrics)
      : namespace_opted_in_(namespace_opted_in), config_(config), metrics_(metrics) {}
  HttpResponse answer(const HttpRequest& request) override {
    return mutate(request, namespace_opted_in_, config_, metrics_);
  }

 private:
  const bool namespace_opted_in_;
  const InjectorConfig& config_;
  InjectorMetrics& metrics_;
};

// /healthz and /readyz: answering at all is the news.
class AliveEndpoint : public HttpEndpoint {
 public:
  HttpResponse answer(const HttpRequest&) override { return plain_response(200, "ok\n"); }
};

class InjectorMetricsEndpoint : public HttpEndpoint {
 public:
  explicit InjectorMetricsEndpoint(InjectorMetrics& metrics) : metrics_(metrics) {}
  HttpResponse answer(const HttpRequest&) override {
    return {200, prometheus_content_type, metrics_.prometheus_text()};
  }

 private:
  InjectorMetrics& metrics_;
};

}  // namespace

std::vector<HttpRoute> injector_routes(const InjectorConfig& config, InjectorMetrics& metrics) {
  std::vector<HttpRoute> routes;
  for (bool namespace_opted_in : {false, true}) {
    routes.push_back({namespace_opted_in ? "/mutate/namespace" : "/mutate",
                      std::make_shared<MutateEndpoint>(namespace_opted_in, config, metrics),
                      "AdmissionReview v1 (POST)"});
    routes.back().post = true;
  }
  auto alive = std::make_shared<AliveEndpoint>();
  routes.push_back({"/healthz", alive, "liveness"});
  routes.push_back({"/readyz", alive, "readiness"});
  routes.push_back({"/metrics", std::make_shared<InjectorMetricsEndpoint>(metrics), "the injector's own metrics"});
  return routes;
}

}  // namespace jvmsight::injector
