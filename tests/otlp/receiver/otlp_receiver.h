#pragma once
// Real OTLP receivers for the tests, on 127.0.0.1 and a free port, built from
// the same pinned protos as the exporter: a grpc++ MetricsService and a small
// HTTP/1.1 server for POST /v1/metrics. Both keep every request with its
// headers, and can be scripted to fail the next N exports.
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "metrics_service.pb.h"

namespace jvmsight::test {

using MetricsRequest = opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest;

struct Received {
  MetricsRequest request;
  std::map<std::string, std::string> headers;  // lowercase names (gRPC metadata or HTTP headers)
  std::chrono::steady_clock::time_point at;
};

class OtlpReceiver {
 public:
  virtual ~OtlpReceiver() = default;
  virtual int port() const = 0;
  // The endpoint URL to configure the agent with.
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port()); }

  // The next `n` exports are refused as unavailable (gRPC UNAVAILABLE, HTTP 503).
  void fail_next(int n);
  std::vector<Received> received() const;
  size_t failures_answered() const;
  // Waits (bounded) until more than `count` requests were accepted.
  bool wait_for_more_than(size_t count, std::chrono::milliseconds timeout) const;

 protected:
  // Called by the transports: true to accept, false to refuse this one.
  bool record(const MetricsRequest& request, std::map<std::string, std::string> headers);

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<Received> received_;
  int fail_next_ = 0;
  size_t failures_ = 0;
};

std::unique_ptr<OtlpReceiver> start_grpc_receiver();
std::unique_ptr<OtlpReceiver> start_http_receiver();

}  // namespace jvmsight::test
