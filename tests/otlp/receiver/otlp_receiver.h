#pragma once
// Real OTLP receivers for the tests, on 127.0.0.1 and a free port, built from
// the same pinned protos as the exporter: a grpc++ server with the metrics,
// trace and logs services, and a small HTTP/1.1 server for POST /v1/metrics,
// /v1/traces and /v1/logs. Both keep every request with its headers, and can
// be scripted: refuse (UNAVAILABLE / 503), throttle (RESOURCE_EXHAUSTED with
// RetryInfo / 429 with Retry-After), accept partly, answer late, serve TLS.
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

// How the receiver answers one export.
struct Reply {
  enum class Kind {
    accept,
    unavailable,  // gRPC UNAVAILABLE, HTTP 503
    throttled,    // gRPC RESOURCE_EXHAUSTED, HTTP 429
    partial,      // accepted, with partial_success {rejected, message}
  };
  Kind kind = Kind::accept;
  std::chrono::milliseconds retry_after{0};  // RetryInfo / Retry-After (whole seconds for HTTP); 0: none
  int64_t rejected = 0;
  std::string message;

  static Reply refused(Kind kind, std::chrono::milliseconds retry_after = std::chrono::milliseconds(0)) {
    Reply r;
    r.kind = kind;
    r.retry_after = retry_after;
    return r;
  }
  static Reply partly(int64_t rejected, std::string message) {
    Reply r;
    r.kind = Kind::partial;
    r.rejected = rejected;
    r.message = std::move(message);
    return r;
  }
};

// PEM files for a TLS receiver; with client_ca, a client certificate signed
// by it is required.
struct TlsFiles {
  std::string certificate;
  std::string key;
  std::string client_ca;
};

class OtlpReceiver {
 public:
  virtual ~OtlpReceiver() = default;
  virtual int port() const = 0;
  // The endpoint URL to configure the agent with.
  std::string endpoint() const { return (tls_ ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port()); }

  // The next `n` exports are refused as unavailable (gRPC UNAVAILABLE, HTTP 503).
  void fail_next(int n);
  // The next exports get these replies, in order; then every export is accepted.
  void script(std::vector<Reply> replies);
  // Every export is answered this late; a client that gives up first is
  // recorded in abandoned(), its export not in received().
  void set_reply_delay(std::chrono::milliseconds delay);
  // How long each client waited for a late reply before it gave up.
  std::vector<std::chrono::milliseconds> abandoned() const;
  // When each refused or throttled export arrived.
  std::vector<std::chrono::steady_clock::time_point> refused_at() const;
  // The accepted requests of one signal, oldest first.
  std::vector<Received> received(const std::string& signal = "metrics") const;
  size_t failures_answered() const;
  size_t partials_answered() const;
  // Waits (bounded) until more than `count` requests of `signal` were accepted.
  bool wait_for_more_than(size_t count, std::chrono::milliseconds timeout, const std::string& signal = "metrics") const;

 protected:
  // Called by the transports once an export is read: the reply to give
  // (accepted and partial exports are kept in received()).
  Reply record(Received received);
  std::chrono::milliseconds reply_delay() const;
  void record_abandoned(std::chrono::milliseconds waited);
  bool tls_ = false;

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<Received> received_;
  std::vector<Reply> script_;
  size_t failures_ = 0;
  size_t partials_ = 0;
  std::chrono::milliseconds delay_{0};
  std::vector<std::chrono::milliseconds> abandoned_;
  std::vector<std::chrono::steady_clock::time_point> refused_at_;
};

// A listening TCP socket on 127.0.0.1 and a free port (set in `port`); -1 on failure.
int listen_on_loopback(int& port);

// Null if the server cannot start (e.g. unreadable TLS files).
std::unique_ptr<OtlpReceiver> start_grpc_receiver(const TlsFiles* tls = nullptr);
std::unique_ptr<OtlpReceiver> start_http_receiver(const TlsFiles* tls = nullptr);

}  // namespace jvmsight::test
