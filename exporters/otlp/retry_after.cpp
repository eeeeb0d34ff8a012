// HTTP Retry-After (retry_info.h), apart from the RetryInfo decoding: the
// HTTP transport needs this one and no protobuf.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "exporters/otlp/retry_info.h"

namespace jvmsight::otlp {
namespace {

constexpr long long longest_wait_s = 86400;  // anything later is not a serious answer

// IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT", RFC 9110), parsed without
// the locale (strptime's month names would follow the JVM's).
std::optional<time_t> parse_http_date(const std::string& text) {
  char weekday[4] = {}, month[4] = {};
  int day = 0, year = 0, hour = 0, minute = 0, second = 0, used = 0;
  if (std::sscanf(text.c_str(), "%3[A-Za-z], %2d %3[A-Za-z] %4d %2d:%2d:%2d GMT%n", weekday, &day, month, &year, &hour,
                  &minute, &second, &used) != 7 ||
      static_cast<size_t>(used) != text.size())
    return std::nullopt;
  static const char* const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int index = -1;
  for (int i = 0; i < 12; ++i)
    if (std::strcmp(month, months[i]) == 0) index = i;
  if (index < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = index;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return timegm(&tm);
}

}  // namespace

std::optional<std::chrono::milliseconds> parse_retry_after(const std::string& value, time_t now) {
  size_t b = value.find_first_not_of(" \t");
  size_t e = value.find_last_not_of(" \t\r\n");
  if (b == std::string::npos) return std::nullopt;
  const std::string text = value.substr(b, e + 1 - b);
  long long seconds = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
  if (ec != std::errc() || end != text.data() + text.size()) {
    auto at = parse_http_date(text);
    if (!at) return std::nullopt;
    seconds = std::max<long long>(0, static_cast<long long>(*at - now));  // a date passed: retry now
  }
  if (seconds < 0 || seconds > longest_wait_s) return std::nullopt;
  return std::chrono::milliseconds(seconds * 1000);
}

}  // namespace jvmsight::otlp
