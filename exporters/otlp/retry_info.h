#pragma once
// google.rpc.RetryInfo from a gRPC status' binary details
// (grpc-status-details-bin: a google.rpc.Status whose details hold Any
// messages). Decoded from the wire format by hand: the google/rpc protos are
// not in the pinned OTLP package, and three nested fields do not justify
// fetching them.
#include <chrono>
#include <ctime>
#include <optional>
#include <string>

namespace jvmsight::otlp {

// The RetryInfo.retry_delay in serialized google.rpc.Status bytes, if any.
std::optional<std::chrono::milliseconds> retry_delay_from_status_details(const std::string& status_bytes);

// HTTP Retry-After: delay-seconds, or an HTTP-date (the time from `now`
// until then). nullopt when malformed or more than a day away.
std::optional<std::chrono::milliseconds> parse_retry_after(const std::string& value, time_t now = time(nullptr));

}  // namespace jvmsight::otlp
