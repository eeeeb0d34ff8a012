#include "options/option_values.h"

#include <arpa/inet.h>

#include <charconv>

namespace jvmsight {

bool parse_port(std::string_view v, int& out) {
  int value = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (ec != std::errc() || end != v.data() + v.size() || value < 0 || value > 65535) return false;
  out = value;
  return true;
}

bool parse_host(std::string_view v, std::string& out) {
  if (v == "localhost") {
    out = "127.0.0.1";
    return true;
  }
  std::string s(v);
  if (s.size() > 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
  unsigned char buf[sizeof(struct in6_addr)];
  if (inet_pton(AF_INET, s.c_str(), buf) == 1 || inet_pton(AF_INET6, s.c_str(), buf) == 1) {
    out = s;
    return true;
  }
  return false;
}

bool parse_span_min_ms(std::string_view v, int64_t& out_ns) {
  double ms = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), ms, std::chars_format::fixed);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(ms >= 0) || ms > 3600000) return false;
  out_ns = static_cast<int64_t>(ms * 1e6 + 0.5);
  return true;
}

bool parse_tristate(std::string_view v, Tristate& out) {
  if (v == "auto")
    out = Tristate::auto_;
  else if (v == "on")
    out = Tristate::on;
  else if (v == "off")
    out = Tristate::off;
  else
    return false;
  return true;
}

bool parse_audience(std::string_view v, Details& out) {
  const bool known = v == "local" || v == "on" || v == "off";
  if (known) out = v == "local" ? Details::local : v == "on" ? Details::on : Details::off;
  return known;
}

bool parse_int(std::string_view v, int min, int max, int& out) {
  int value = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || value < min || value > max) return false;
  out = value;
  return true;
}

bool parse_rate_or_off(std::string_view v, int& out) {
  if (v != "off") return parse_int(v, 100, 10'000'000, out);
  out = 0;
  return true;
}

bool parse_on_off(std::string_view v, bool& out) {
  if (v != "on" && v != "off") return false;
  out = v == "on";
  return true;
}

}  // namespace jvmsight
