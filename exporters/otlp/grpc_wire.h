#pragma once
// The parts of gRPC over HTTP/2 that are plain data (the gRPC "HTTP/2
// protocol" document): message framing, grpc-timeout, the base64 of binary metadata, and how an HTTP status or
// an HTTP/2 stream reset becomes a gRPC status. Pure, unit-tested; the
// transport (grpc_client.cpp) only moves frames.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "exporters/otlp/export_client.h"

namespace jvmsight::otlp {

// The status codes an OTLP client acts on (the others are just "failed").
enum GrpcCode : int {
  grpc_ok = 0,
  grpc_cancelled = 1,
  grpc_unknown = 2,
  grpc_deadline_exceeded = 4,
  grpc_permission_denied = 7,
  grpc_resource_exhausted = 8,
  grpc_aborted = 10,
  grpc_out_of_range = 11,
  grpc_unimplemented = 12,
  grpc_internal = 13,
  grpc_unavailable = 14,
  grpc_data_loss = 15,
  grpc_unauthenticated = 16,
};

// Length-prefixed message: a compressed flag byte, a 4-byte big-endian length, the bytes.
std::string grpc_frame(const std::string& message, bool compressed);
// The first message of a response body; false when the body is not one whole frame.
bool grpc_unframe(const std::string& body, std::string& message, bool& compressed);

// grpc-timeout: at most 8 digits, in milliseconds while they fit, else seconds.
std::string grpc_timeout(std::chrono::milliseconds timeout);

// Binary metadata (-bin) is base64, padded or not; nullopt if malformed.
std::optional<std::string> base64_decode(const std::string& value);

// A response without grpc-status: the HTTP status' meaning (gRPC's mapping).
int grpc_code_from_http_status(int http_status);
// An HTTP/2 RST_STREAM error code before any status: its gRPC meaning.
int grpc_code_from_reset(uint32_t http2_error);

// What the export worker does with a status: retryable per the OTLP
// specification (RESOURCE_EXHAUSTED only with RetryInfo in the details).
ExportResult export_result_of(int code, const std::string& message, const std::string& status_details);

}  // namespace jvmsight::otlp
