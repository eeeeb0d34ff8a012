#include "options/options.h"

#include <set>
#include <vector>

#include "exporters/http/tls_settings.h"
#include "options/near_miss.h"
#include "options/option_values.h"

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

// jcmd passes the argument with its quotes when the user wrote '"a=b,c=d"'.
std::string_view strip_quotes(std::string_view s) {
  if (s.size() >= 2 && ((s.front() == '"' && s.back() == '"') || (s.front() == '\'' && s.back() == '\'')))
    return s.substr(1, s.size() - 2);
  return s;
}

// One row per option key: what a bad value is called in the error, what is
// expected instead, and how a good one is stored.
struct OptionSpec {
  std::string_view key;
  std::string_view what;
  std::string_view expected;
  bool (*apply)(std::string_view value, Options& o);
};

const OptionSpec option_specs[] = {
    {"host", "host", "a numeric IPv4 or IPv6 address, or localhost; e.g. 127.0.0.1 or ::1",
     [](std::string_view v, Options& o) { return parse_host(v, o.host); }},
    {"port", "port", "a number from 0 to 65535; 0 picks a free port",
     [](std::string_view v, Options& o) { return parse_port(v, o.port); }},
    {"portfile", "portfile", "a file path",
     [](std::string_view v, Options& o) {
       if (v.empty()) return false;
       o.portfile = std::string(v);
       return true;
     }},
    {"log", "log level", "off, error, warn, info or debug",
     [](std::string_view v, Options& o) { return log::parse_level(v, o.log_level); }},
    {"native_states", "native_states", "auto, on or off",
     [](std::string_view v, Options& o) { return parse_tristate(v, o.native_states); }},
    {"ended_thread_cpu", "ended_thread_cpu", "auto, on or off; auto: on except on JDK 21",
     [](std::string_view v, Options& o) { return parse_tristate(v, o.ended_thread_cpu); }},
    {"gc_span_min_ms", "gc_span_min_ms",
     "milliseconds from 0 to 3600000, decimals allowed, e.g. 0.5 or 10; 0 records every pause",
     [](std::string_view v, Options& o) { return parse_span_min_ms(v, o.gc_span_min_ns); }},
    {"gc_notifications", "gc_notifications", "auto, on or off; auto: on except with ZGC or Shenandoah",
     [](std::string_view v, Options& o) { return parse_tristate(v, o.gc_notifications); }},
    {"gc_cause", "gc_cause", "on or off", [](std::string_view v, Options& o) { return parse_on_off(v, o.gc_cause); }},
    {"details", "details",
     "local, on or off; local serves /threads and /deadlocks to loopback clients only, on to every client, off to "
     "none",
     [](std::string_view v, Options& o) { return parse_audience(v, o.details); }},
    {"deadlock_check_ms", "deadlock_check_ms", "milliseconds from 50 to 60000, or 0 to turn the background check off",
     [](std::string_view v, Options& o) {
       return parse_int(v, 0, 60000, o.deadlock_check_ms) && (o.deadlock_check_ms == 0 || o.deadlock_check_ms >= 50);
     }},
    {"stuck_threshold_ms", "stuck_threshold_ms", "milliseconds from 1000 to 86400000 (a day)",
     [](std::string_view v, Options& o) { return parse_int(v, 1000, 86'400'000, o.stuck_threshold_ms); }},
    {"lock_classes", "lock_classes", "a number from 1 to 1000: how many lock classes get their own label",
     [](std::string_view v, Options& o) { return parse_int(v, 1, 1000, o.lock_classes); }},
    {"contention", "contention", "on or off; off stops the monitor contention and wait events",
     [](std::string_view v, Options& o) { return parse_on_off(v, o.contention); }},
    {"contention_sampling", "contention_sampling",
     "a rate from 100 to 10000000 contended entries a second above which the contention events are on only "
     "part of the time, or off to keep them always on",
     [](std::string_view v, Options& o) { return parse_rate_or_off(v, o.contention_sampling); }},
    {"virtual_thread_churn", "virtual_thread_churn",
     "a rate from 100 to 10000000 virtual-thread starts a second above which, on JDK 21, the monitor events and "
     "the pinning probes are on only part of the time, or off to keep them always on",
     [](std::string_view v, Options& o) { return parse_rate_or_off(v, o.virtual_thread_churn); }},
    {"contended_span_min_ms", "contended_span_min_ms",
     "milliseconds from 0 to 3600000, decimals allowed, e.g. 50 or 0.5; 0 records no contended wait as a span",
     [](std::string_view v, Options& o) { return parse_span_min_ms(v, o.contended_span_min_ns); }},
    {"profiles", "profiles",
     "on, local or off; on serves /debug/pprof/mutex and /block to every client /metrics serves, local to "
     "loopback clients only, off takes no stacks",
     [](std::string_view v, Options& o) { return parse_audience(v, o.profiles); }},
    {"profile_rate_us", "profile_rate_us",
     "microseconds from 0 to 1000000: a contended wait of d is kept in the profile with probability d/rate "
     "(always from the rate up); 0 keeps every wait",
     [](std::string_view v, Options& o) {
       int us = 0;
       if (!parse_int(v, 0, 1'000'000, us)) return false;
       o.profile_rate_ns = int64_t{us} * 1000;
       return true;
     }},
    {"pinning", "pinning", "auto, on or off",
     [](std::string_view v, Options& o) { return parse_tristate(v, o.pinning); }},
    {"virtual_thread_starts", "virtual_thread_starts",
     "on or off; off leaves jvmsight_virtual_threads_started_total out",
     [](std::string_view v, Options& o) { return parse_on_off(v, o.virtual_thread_starts); }},
    {"thread_pools", "thread_pools",
     "a number from 0 to 1000: how many thread pools get their own label (by CPU); 0 turns the pool metrics off",
     [](std::string_view v, Options& o) { return parse_int(v, 0, 1000, o.thread_pools); }},
    {"client_java_names", "client_java_names",
     "both, 0.x, 1.x or off: which generations of client_java names are served (off: only jvmsight_* families)",
     [](std::string_view v, Options& o) {
       if (v == "both")
         o.client_java_names = ClientJavaNames::both;
       else if (v == "0.x")
         o.client_java_names = ClientJavaNames::v0;
       else if (v == "1.x")
         o.client_java_names = ClientJavaNames::v1;
       else if (v == "off")
         o.client_java_names = ClientJavaNames::off;
       else
         return false;
       return true;
     }},
    {"otlp_endpoint", "otlp_endpoint", "an http:// or https:// URL of an OTLP collector, e.g. http://127.0.0.1:4317",
     [](std::string_view v, Options& o) {
       if (v.rfind("http://", 0) != 0 && v.rfind("https://", 0) != 0) return false;
       o.otlp_endpoint = std::string(v);
       return true;
     }},
    {"otlp_protocol", "otlp_protocol", "grpc or http/protobuf",
     [](std::string_view v, Options& o) {
       if (v != "grpc" && v != "http/protobuf") return false;
       o.otlp_protocol = std::string(v);
       return true;
     }},
    {"basic_auth_file", "basic_auth_file", "a file path (the file holds user:password lines)",
     [](std::string_view v, Options& o) {
       o.basic_auth_file = std::string(v);
       return !v.empty();
     }},
    {"bearer_token_file", "bearer_token_file", "a file path (the file holds one token)",
     [](std::string_view v, Options& o) {
       o.bearer_token_file = std::string(v);
       return !v.empty();
     }},
    {"tls_cert_file", "tls_cert_file", "a PEM file path (the server certificate, then intermediates)",
     [](std::string_view v, Options& o) {
       o.tls_cert_file = std::string(v);
       return !v.empty();
     }},
    {"tls_key_file", "tls_key_file", "a PEM file path (the certificate's unencrypted private key)",
     [](std::string_view v, Options& o) {
       o.tls_key_file = std::string(v);
       return !v.empty();
     }},
    {"tls_min_version", "tls_min_version", "1.2 or 1.3",
     [](std::string_view v, Options& o) {
       o.tls_min_version = std::string(v);
       return valid_tls_min_version(o.tls_min_version);
     }},
};

// Users type "port=9404, log=warn": blanks around items, keys and values
// are not part of them. Blanks inside a value (a portfile path) stay.
std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// label.<name>=<value>: a constant label. Prometheus' rules for a label
// name; "__" is reserved for Prometheus itself.
constexpr std::string_view label_prefix = "label.";
constexpr size_t max_label_value = 256;
// Every series carries them all: a bound on how much they add to a scrape.
constexpr size_t max_labels = 32;
constexpr size_t max_labels_bytes = 2048;  // names and values together

bool valid_label_name(std::string_view name) {
  if (name.empty() || name.substr(0, 2) == "__") return false;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!letter && !(i > 0 && c >= '0' && c <= '9')) return false;
  }
  return true;
}

// Empty when fine, else the error.
std::string add_constant_label(std::string_view key, std::string_view value, Options& o) {
  std::string_view name = key.substr(label_prefix.size());
  if (!valid_label_name(name))
    return "bad label name " + quoted(name) + " (expected letters, digits and _, not starting with a digit or __)";
  if (value.size() > max_label_value)
    return "label " + quoted(name) + " has a value over " + std::to_string(max_label_value) + " characters";
  size_t bytes = name.size() + value.size();
  for (const auto& l : o.labels) bytes += l.name.size() + l.value.size();
  if (o.labels.size() >= max_labels || bytes > max_labels_bytes)
    return "too many constant labels: at most " + std::to_string(max_labels) + " label.<name> options of " +
           std::to_string(max_labels_bytes) + " bytes in all (names and values); " + quoted(name) + " is over";
  o.labels.push_back({std::string(name), std::string(value)});
  return "";
}

// The known key closest to an unknown one, if it is a near miss.
std::string near_miss(std::string_view key) {
  std::vector<std::string_view> keys;
  for (const auto& spec : option_specs) keys.push_back(spec.key);
  NearMiss best = closest_key(key, keys);
  size_t dot = key.find('.');
  // "lable.env": the prefix is the typo, the label name is the user's.
  if (dot != std::string_view::npos && !closest_key(key.substr(0, dot), {"label"}, best.distance).key.empty())
    return "label" + std::string(key.substr(dot));
  return std::string(best.key);
}

}  // namespace

std::string accepted_option_keys() {
  std::string keys;
  for (const auto& spec : option_specs) {
    if (!keys.empty()) keys += ", ";
    keys += spec.key;
  }
  return keys + ", label.<name>";
}

ParsedOptions parse_options(std::string_view text) {
  ParsedOptions result;
  text = strip_quotes(trim(text));
  std::set<std::string, std::less<>> seen;
  size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = trim(text.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) {
      if (comma == text.size()) break;  // a trailing comma is harmless
      result.error = "empty option in " + quoted(text) + " (expected key=value,key=value)";
      return result;
    }
    size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      result.error =
          "option " + quoted(item) + " has no value (expected key=value; keys: " + accepted_option_keys() + ")";
      return result;
    }
    std::string_view key = trim(item.substr(0, eq));
    std::string_view value = trim(item.substr(eq + 1));
    if (seen.count(key)) {
      result.error = "option " + quoted(key) + " given twice";
      return result;
    }
    seen.emplace(key);
    if (key.substr(0, label_prefix.size()) == label_prefix) {
      result.error = add_constant_label(key, value, result.options);
      if (!result.ok()) return result;
      continue;
    }
    const OptionSpec* spec = nullptr;
    for (const auto& s : option_specs)
      if (s.key == key) spec = &s;
    if (spec == nullptr) {
      std::string hint = near_miss(key);
      result.error = "unknown option " + quoted(key) +
                     (hint.empty() ? " (accepted: " + accepted_option_keys() + ")"
                                   : " (did you mean " + quoted(hint) + "? accepted: " + accepted_option_keys() + ")");
      return result;
    }
    if (!spec->apply(value, result.options)) {
      result.error =
          "bad " + std::string(spec->what) + " " + quoted(value) + " (expected " + std::string(spec->expected) + ")";
      return result;
    }
  }
  return result;
}

}  // namespace jvmsight
