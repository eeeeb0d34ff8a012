#include "agent/options.h"

#include <arpa/inet.h>

#include <charconv>
#include <set>

namespace jvmsight {
namespace {

std::string quoted(std::string_view s) {
  // Bounded echo of user input: enough to recognise it, never a wall of text.
  constexpr size_t limit = 64;
  std::string out = "'";
  out += s.substr(0, limit);
  if (s.size() > limit) out += "...";
  out += "'";
  return out;
}

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

// Milliseconds, decimals allowed (0.5 = 500 us), up to an hour.
bool parse_span_min_ms(std::string_view v, int64_t& out_ns) {
  double ms = -1;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), ms, std::chars_format::fixed);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || !(ms >= 0) || ms > 3600000) return false;
  out_ns = static_cast<int64_t>(ms * 1e6 + 0.5);
  return true;
}

bool parse_tristate(std::string_view v, Tristate& out) {
  if (v == "auto") out = Tristate::auto_;
  else if (v == "on") out = Tristate::on;
  else if (v == "off") out = Tristate::off;
  else return false;
  return true;
}

// jcmd passes the argument with its quotes when the user wrote '"a=b,c=d"'.
std::string_view strip_quotes(std::string_view s) {
  if (s.size() >= 2 && ((s.front() == '"' && s.back() == '"') || (s.front() == '\'' && s.back() == '\'')))
    return s.substr(1, s.size() - 2);
  return s;
}

bool parse_int(std::string_view v, int min, int max, int& out) {
  int value = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size() || value < min || value > max) return false;
  out = value;
  return true;
}

}  // namespace

std::string_view accepted_option_keys() {
  return "host, port, portfile, log, native_states, gc_span_min_ms, gc_notifications, details, deadlock_check_ms, "
         "lock_classes, contention";
}

ParsedOptions parse_options(std::string_view text) {
  ParsedOptions result;
  Options& o = result.options;
  text = strip_quotes(text);
  std::set<std::string, std::less<>> seen;
  size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    pos = comma + 1;
    if (item.empty()) {
      if (comma == text.size()) break;  // a trailing comma is harmless
      result.error = "empty option in " + quoted(text) + " (expected key=value,key=value)";
      return result;
    }
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      result.error = "option " + quoted(item) + " has no value (expected key=value; keys: " +
                     std::string(accepted_option_keys()) + ")";
      return result;
    }
    std::string_view key = item.substr(0, eq);
    std::string_view value = item.substr(eq + 1);
    if (seen.count(key)) {
      result.error = "option " + quoted(key) + " given twice";
      return result;
    }
    seen.emplace(key);
    if (key == "port") {
      if (!parse_port(value, o.port)) {
        result.error = "bad port " + quoted(value) + " (expected a number from 0 to 65535; 0 picks a free port)";
        return result;
      }
    } else if (key == "host") {
      if (!parse_host(value, o.host)) {
        result.error = "bad host " + quoted(value) +
                       " (expected a numeric IPv4 or IPv6 address, or localhost; e.g. 127.0.0.1 or ::1)";
        return result;
      }
    } else if (key == "portfile") {
      if (value.empty()) {
        result.error = "bad portfile '' (expected a file path)";
        return result;
      }
      o.portfile = std::string(value);
    } else if (key == "log") {
      if (!log::parse_level(value, o.log_level)) {
        result.error = "bad log level " + quoted(value) + " (expected off, error, warn, info or debug)";
        return result;
      }
    } else if (key == "native_states") {
      if (!parse_tristate(value, o.native_states)) {
        result.error = "bad native_states " + quoted(value) + " (expected auto, on or off)";
        return result;
      }
    } else if (key == "gc_span_min_ms") {
      if (!parse_span_min_ms(value, o.gc_span_min_ns)) {
        result.error = "bad gc_span_min_ms " + quoted(value) +
                       " (expected milliseconds from 0 to 3600000, decimals allowed, e.g. 0.5 or 10; 0 records "
                       "every pause)";
        return result;
      }
    } else if (key == "gc_notifications") {
      if (!parse_tristate(value, o.gc_notifications)) {
        result.error = "bad gc_notifications " + quoted(value) +
                       " (expected auto, on or off; auto: on except with ZGC or Shenandoah)";
        return result;
      }
    } else if (key == "details") {
      if (value != "on" && value != "off") {
        result.error = "bad details " + quoted(value) + " (expected on or off; off removes /threads and /deadlocks)";
        return result;
      }
      o.details = value == "on";
    } else if (key == "contention") {
      if (value != "on" && value != "off") {
        result.error = "bad contention " + quoted(value) +
                       " (expected on or off; off stops the monitor contention and wait events)";
        return result;
      }
      o.contention = value == "on";
    } else if (key == "deadlock_check_ms") {
      if (!parse_int(value, 0, 60000, o.deadlock_check_ms) || (o.deadlock_check_ms > 0 && o.deadlock_check_ms < 50)) {
        result.error = "bad deadlock_check_ms " + quoted(value) +
                       " (expected milliseconds from 50 to 60000, or 0 to turn the background check off)";
        return result;
      }
    } else if (key == "lock_classes") {
      if (!parse_int(value, 1, 1000, o.lock_classes)) {
        result.error = "bad lock_classes " + quoted(value) +
                       " (expected a number from 1 to 1000: how many lock classes get their own label)";
        return result;
      }
    } else {
      result.error = "unknown option " + quoted(key) + " (accepted: " + std::string(accepted_option_keys()) + ")";
      return result;
    }
  }
  return result;
}

}  // namespace jvmsight
