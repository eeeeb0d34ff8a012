#include "exporters/otlp/grpc_wire.h"

#include <algorithm>

#include "exporters/otlp/retry_info.h"

namespace jvmsight::otlp {

std::string grpc_frame(const std::string& message, bool compressed) {
  const auto size = static_cast<uint32_t>(message.size());
  std::string frame;
  frame.reserve(message.size() + 5);
  frame += static_cast<char>(compressed ? 1 : 0);
  for (int shift = 24; shift >= 0; shift -= 8) frame += static_cast<char>((size >> shift) & 0xff);
  frame += message;
  return frame;
}

bool grpc_unframe(const std::string& body, std::string& message, bool& compressed) {
  if (body.size() < 5) return false;
  uint32_t size = 0;
  for (int i = 1; i < 5; ++i) size = (size << 8) | static_cast<uint8_t>(body[i]);
  if (body.size() - 5 < size) return false;
  compressed = body[0] != 0;
  message.assign(body, 5, size);
  return true;
}

std::string grpc_timeout(std::chrono::milliseconds timeout) {
  const int64_t ms = std::max<int64_t>(timeout.count(), 1);
  if (ms < 100000000) return std::to_string(ms) + "m";
  return std::to_string(std::min<int64_t>(ms / 1000, 99999999)) + "S";
}

namespace {
int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::optional<std::string> base64_decode(const std::string& value) {
  std::string out;
  uint32_t bits = 0;
  int count = 0;
  size_t end = value.size();
  while (end > 0 && value[end - 1] == '=') --end;
  if (value.size() - end > 2) return std::nullopt;
  for (size_t i = 0; i < end; ++i) {
    int v = base64_value(value[i]);
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<uint32_t>(v);
    if (++count == 4) {
      out += static_cast<char>((bits >> 16) & 0xff);
      out += static_cast<char>((bits >> 8) & 0xff);
      out += static_cast<char>(bits & 0xff);
      bits = 0;
      count = 0;
    }
  }
  if (count == 1) return std::nullopt;
  if (count == 2) out += static_cast<char>((bits >> 4) & 0xff);
  if (count == 3) {
    out += static_cast<char>((bits >> 10) & 0xff);
    out += static_cast<char>((bits >> 2) & 0xff);
  }
  return out;
}

int grpc_code_from_http_status(int http_status) {
  switch (http_status) {
    case 400:
      return grpc_internal;
    case 401:
      return grpc_unauthenticated;
    case 403:
      return grpc_permission_denied;
    case 404:
      return grpc_unimplemented;
    case 429:
    case 502:
    case 503:
    case 504:
      return grpc_unavailable;
    default:
      return grpc_unknown;
  }
}

int grpc_code_from_reset(uint32_t http2_error) {
  switch (http2_error) {
    case 0x7:  // REFUSED_STREAM: the server did not start on it; safe to send again
      return grpc_unavailable;
    case 0x8:  // CANCEL
      return grpc_cancelled;
    case 0xb:  // ENHANCE_YOUR_CALM
      return grpc_resource_exhausted;
    case 0xc:  // INADEQUATE_SECURITY
      return grpc_permission_denied;
    default:
      return grpc_internal;
  }
}

ExportResult export_result_of(int code, const std::string& message, const std::string& status_details) {
  ExportResult result;
  if (code == grpc_ok) {
    result.kind = ExportResult::Kind::ok;
    return result;
  }
  result.message = "gRPC " + std::to_string(code) + " " + message;
  auto delay = retry_delay_from_status_details(status_details);
  if (delay) result.retry_after = *delay;
  switch (code) {
    case grpc_cancelled:
    case grpc_deadline_exceeded:
    case grpc_aborted:
    case grpc_out_of_range:
    case grpc_unavailable:
    case grpc_data_loss:
      result.kind = ExportResult::Kind::retryable;
      break;
    case grpc_resource_exhausted:
      result.kind = delay ? ExportResult::Kind::retryable : ExportResult::Kind::failed;
      break;
    default:
      result.kind = ExportResult::Kind::failed;
  }
  return result;
}

}  // namespace jvmsight::otlp
