#pragma once
// The injector's HTTP routes on the project's server (exporters/http):
//   POST /mutate  AdmissionReview v1 -> response with the patch (400 for a
//                 body that is not one; any other failure admits unpatched)
//   POST /mutate/namespace   the same for pods of namespaces labelled
//                 jvmsight.io/inject=true (the webhook entry that selects them
//                 calls this path: a review does not carry namespace labels)
//   /healthz, /readyz   200 while the server runs
//   /metrics      its own counters (reviews, injections, skips by reason, errors)
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "exporters/http/http_server.h"
#include "injector/config.h"

namespace jvmsight::injector {

// Counters of the reviews answered. Handlers run on the server's one
// thread; /metrics reads them there too, the mutex only guards tests.
class InjectorMetrics {
 public:
  void reviewed() { ++reviews_; }
  void injected() { ++injections_; }
  void skipped(const std::string& reason);
  void error(const char* kind);  // "malformed" or "internal"
  std::string prometheus_text() const;

 private:
  mutable std::mutex mutex_;
  uint64_t reviews_ = 0, injections_ = 0;
  // Every reason the injector gives, from 0, so rate() sees the first one.
  std::map<std::string, uint64_t> skips_ = {{"already_injected", 0}, {"internal_error", 0}, {"invalid_options", 0},
                                            {"no_container", 0},     {"not_a_pod", 0},      {"not_create", 0},
                                            {"not_opted_in", 0},     {"opted_out", 0}};
  std::map<std::string, uint64_t> errors_ = {{"malformed", 0}, {"internal", 0}};
};

// The answer to POST /mutate and /mutate/namespace.
HttpResponse mutate(const HttpRequest& request, bool namespace_opted_in, const InjectorConfig& config,
                    InjectorMetrics& metrics);

std::vector<HttpRoute> injector_routes(const InjectorConfig& config, InjectorMetrics& metrics);

}  // namespace jvmsight::injector
