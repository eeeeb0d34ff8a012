#pragma once
// The transport seam: one export call (a serialized Export*ServiceRequest of
// any signal) with a deadline, and what came of it. gRPC (grpc_client.cpp)
// and HTTP/protobuf (http_client.cpp) implement it, both inside
// libjvmsight-otlp.so; the export worker retries on top. Transports move
// bytes only and never look inside a request or response, so one client
// type serves metrics, traces and logs.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "exporters/otlp/otlp_config.h"

namespace jvmsight::otlp {

// OpenTelemetry's signals (not the agent's signals, agent/*_signal: what it watches).
enum class Signal { metrics, traces, logs };
const char* signal_name(Signal signal);  // "metrics", "traces", "logs"

struct ExportResult {
  enum class Kind { ok, retryable, failed };
  Kind kind = Kind::failed;
  std::chrono::milliseconds retry_after{-1};  // from Retry-After / RetryInfo; -1: none given
  int64_t rejected = 0;                       // partial success: accepted, but not all of it
  std::string message;                        // the error, or the partial success' message
  std::string response;                       // ok: the serialized Export*ServiceResponse (may be empty)
};

class ExportClient {
 public:
  virtual ~ExportClient() = default;
  virtual ExportResult export_request(const std::string& request_bytes, std::chrono::milliseconds timeout) = 0;
};

// Reads the partial_success of result.response into `result` (an empty or
// unparsable response is a full success).
void read_partial_success(ExportResult& result);

// The client of config.protocol for one signal: null (and `error` set) when
// the settings cannot work, e.g. an unreadable certificate.
std::unique_ptr<ExportClient> make_client(Signal signal, const SignalConfig& config, std::string& error);
// Each transport's own, for make_client.
std::unique_ptr<ExportClient> make_grpc_client(Signal signal, const SignalConfig& config, std::string& error);
std::unique_ptr<ExportClient> make_http_client(const SignalConfig& config, std::string& error);

}  // namespace jvmsight::otlp
