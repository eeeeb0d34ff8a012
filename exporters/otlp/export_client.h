#pragma once
// The transport seam: one export call (a serialized Export*ServiceRequest of
// any signal) with a deadline, and what came of it. gRPC and HTTP/protobuf
// implement it, each in its own shared object (libjvmsight-otlp-grpc.so,
// libjvmsight-otlp-http.so) that the plugin loads only for the protocol in
// use (transport_loader.h); the export worker retries on top. Transports
// move bytes only and never look inside a request or response, so one
// client type serves metrics, traces and logs.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "exporters/otlp/otlp_config.h"

namespace jvmsight::otlp {

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

// Each transport shared object exports one factory of this type, named
// jvmsight_otlp_make_client: null (and *error set) when the settings cannot
// work, e.g. an unreadable certificate. abi: JVMSIGHT_OTLP_ABI_VERSION of the
// caller, refused if it differs (the objects come from different builds).
using MakeClientFn = ExportClient* (*)(uint32_t abi, Signal signal, const SignalConfig* config, std::string* error);

}  // namespace jvmsight::otlp
