#pragma once
// Real OTLP receivers for the tests, on 127.0.0.1 and a free port, built from
// the same pinned protos as the exporter: a grpc++ server with the metrics,
// trace and logs services, and a small HTTP/1.1 server for POST /v1/metrics,
// /v1/traces and /v1/logs. Both keep every request with its headers, and can
// be scripted to fail the next N exports.
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "logs_service.pb.h"
#include "metrics_service.pb.h"
#include "trace_service.pb.h"

namespace jvmsight::test {

using MetricsRequest = opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest;
using TracesRequest = opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest;
using LogsRequest = opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest;

struct Received {
  std::string signal;      // "metrics", "traces" or "logs": which one of the three below is set
  MetricsRequest request;  // metrics
  TracesRequest traces;
  LogsRequest logs;
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
  // The accepted requests of one signal, oldest first.
  std::vector<Received> received(const std::string& signal = "metrics") const;
  size_t failures_answered() const;
  // Waits (bounded) until more than `count` requests of `signal` were accepted.
  bool wait_for_more_than(size_t count, std::chrono::milliseconds timeout,
                          const std::string& signal = "metrics") const;

 protected:
  // Called by the transports: true to accept, false to refuse this one.
  bool record(Received received);

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
