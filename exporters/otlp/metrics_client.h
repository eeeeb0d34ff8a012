#pragma once
// The transport seam: one export call with a deadline and what came of it.
// gRPC and HTTP/protobuf implement it; the export worker retries on top.
#include <chrono>
#include <memory>
#include <string>

#include "exporters/otlp/otlp_config.h"
#include "metrics_service.pb.h"

namespace jvmsight::otlp {

struct ExportResult {
  enum class Kind { ok, retryable, failed };
  Kind kind = Kind::failed;
  std::chrono::milliseconds retry_after{-1};  // from Retry-After / RetryInfo; -1: none given
  int64_t rejected_points = 0;                // partial success: accepted, but not all of it
  std::string message;                        // the error, or the partial success' message
};

class MetricsClient {
 public:
  virtual ~MetricsClient() = default;
  virtual ExportResult export_metrics(
      const opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest& request,
      std::chrono::milliseconds timeout) = 0;
};

// Null (and error set) when the settings cannot work, e.g. an unreadable certificate.
std::unique_ptr<MetricsClient> make_grpc_metrics_client(const SignalConfig& config, std::string& error);
std::unique_ptr<MetricsClient> make_http_metrics_client(const SignalConfig& config, std::string& error);

}  // namespace jvmsight::otlp
