#pragma once
// Endpoints and sources written as functions, for the tests of the HTTP
// server and its endpoints (the agent's are classes: HttpEndpoint,
// MetricsSource and ReportSource implementations). Header only: the fuzz
// targets use it too.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exporters/http/http_server.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "exporters/reports/report_endpoints.h"

namespace jvmsight::test {

template <class Answer>
class FunctionEndpoint : public HttpEndpoint {
 public:
  explicit FunctionEndpoint(Answer answer) : answer_(std::move(answer)) {}
  HttpResponse answer(const HttpRequest& request) override { return answer_(request); }

 private:
  Answer answer_;
};

// A route answered by answer(const HttpRequest&) -> HttpResponse.
template <class Answer>
HttpRoute route(std::string path, Answer answer, std::string summary = "") {
  return {std::move(path), std::make_shared<FunctionEndpoint<Answer>>(std::move(answer)), std::move(summary)};
}

// A MetricsSource answered by take() -> std::optional<MetricFamilies>.
template <class Take>
class MetricsFrom : public MetricsSource {
 public:
  explicit MetricsFrom(Take take) : take_(std::move(take)) {}
  std::optional<MetricFamilies> metrics() override { return take_(); }

 private:
  Take take_;
};

// Reports as given (nullopt: the JVM was busy).
struct FixedReports : ReportSource {
  std::optional<std::vector<ThreadRecord>> threads = std::vector<ThreadRecord>{};
  std::optional<DeadlocksPage> page = DeadlocksPage{};
  std::optional<GcReport> gc = GcReport{};
  std::optional<std::vector<ThreadRecord>> thread_dump() override { return threads; }
  std::optional<DeadlocksPage> deadlocks() override { return page; }
  std::optional<GcReport> gc_report() override { return gc; }
};

}  // namespace jvmsight::test
