#pragma once
// The injector's HTTP routes on the project's server (exporters/http):
//   POST /mutate  AdmissionReview v1 -> response with the patch (400 for a
//                 body that is not one; any other failure admits unpatched)
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
  std::map<std::string, uint64_t> skips_, errors_;
};

// The answer to POST /mutate[?namespace=opted-in].
HttpResponse mutate(const HttpRequest& request, const InjectorConfig& config, InjectorMetrics& metrics);

std::vector<HttpRoute> injector_routes(const InjectorConfig& config, InjectorMetrics& metrics);

}  // namespace jvmsight::injector
