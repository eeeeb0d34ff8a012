// HTTP Retry-After (retry_info.h), apart from the RetryInfo decoding: the
// HTTP transport needs this one and no protobuf.
#include <charconv>

#include "exporters/otlp/retry_info.h"

namespace jvmsight::otlp {

std::optional<std::chrono::milliseconds> parse_retry_after(const std::string& value) {
  size_t b = value.find_first_not_of(" \t");
  size_t e = value.find_last_not_of(" \t\r\n");
  if (b == std::string::npos) return std::nullopt;
  long long seconds = -1;
  auto [end, ec] = std::from_chars(value.data() + b, value.data() + e + 1, seconds);
  if (ec != std::errc() || end != value.data() + e + 1 || seconds < 0 || seconds > 86400) return std::nullopt;
  return std::chrono::milliseconds(seconds * 1000);
}

}  // namespace jvmsight::otlp
