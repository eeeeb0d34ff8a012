#include "exporters/otlp/otlp_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace jvmsight::otlp {
namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Bounded echo of user input, as the agent's option errors do.
std::string quoted(const std::string& s) {
  constexpr size_t limit = 64;
  return "'" + s.substr(0, limit) + (s.size() > limit ? "...'" : "'");
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Reads the environment and records one problem per bad value.
class Reader {
 public:
  Reader(const EnvLookup& env, std::vector<std::string>& problems) : env_(env), problems_(problems) {}

  // Unset and empty are the same: the spec treats empty values as unset.
  std::optional<std::string> get(const std::string& name) const {
    const char* v = env_(name.c_str());
    if (v == nullptr || *v == '\0') return std::nullopt;
    return std::string(v);
  }

  // A general variable is read once per signal: its problem is told once.
  void bad(const std::string& name, const std::string& value, const std::string& expected, const std::string& kept) {
    std::string problem = name + "=" + quoted(value) + " is not valid (expected " + expected + "); using " + kept;
    for (const auto& p : problems_)
      if (p == problem) return;
    problems_.push_back(problem);
  }

  void milliseconds(const std::string& name, std::chrono::milliseconds& out, long long max_ms) {
    auto v = get(name);
    if (!v) return;
    long long ms = -1;
    auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), ms);
    if (ec != std::errc() || end != v->data() + v->size() || ms < 0 || ms > max_ms) {
      bad(name, *v, "milliseconds from 0 to " + std::to_string(max_ms), std::to_string(out.count()));
      return;
    }
    out = std::chrono::milliseconds(ms);
  }

  void boolean(const std::string& name, bool& out) {
    auto v = get(name);
    if (!v) return;
    std::string l = lower(trim(*v));
    if (l == "true")
      out = true;
    else if (l == "false")
      out = false;
    else
      bad(name, *v, "true or false", out ? "true" : "false");
  }

 private:
  const EnvLookup& env_;
  std::vector<std::string>& problems_;
};

bool parse_protocol(const std::string& v, Protocol& out) {
  if (v == "grpc")
    out = Protocol::grpc;
  else if (v == "http/protobuf")
    out = Protocol::http_protobuf;
  else
    return false;
  return true;
}

std::string upper_signal(const std::string& signal) {
  std::string s = signal;
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// The value of the per-signal variable if set, else of the general one;
// `name` tells which was used (for messages).
std::optional<std::string> pick(const Reader& r, const std::string& suffix, const std::string& signal,
                                std::string& name) {
  name = "OTEL_EXPORTER_OTLP_" + upper_signal(signal) + "_" + suffix;
  if (auto v = r.get(name)) return v;
  name = "OTEL_EXPORTER_OTLP_" + suffix;
  return r.get(name);
}

// Endpoint and TLS: the option, else the per-signal URL (as given), else
// the general one (HTTP appends /v1/<signal>), else the default port.
void read_endpoint(Reader& r, const std::string& signal, const ConfigOverrides& overrides, SignalConfig& out) {
  std::string name;
  bool per_signal = false;
  std::string url;
  std::string source = "option otlp_endpoint";
  if (overrides.endpoint && !overrides.endpoint->empty()) {
    url = *overrides.endpoint;
    out.endpoint_set = true;
  } else if (auto v = r.get(source = "OTEL_EXPORTER_OTLP_" + upper_signal(signal) + "_ENDPOINT")) {
    url = *v;
    per_signal = true;
    out.endpoint_set = true;
  } else if (auto g = r.get(source = "OTEL_EXPORTER_OTLP_ENDPOINT")) {
    url = *g;
    out.endpoint_set = true;
  }
  url = trim(url);
  const bool grpc = out.protocol == Protocol::grpc;
  const std::string fallback = grpc ? "http://localhost:4317" : "http://localhost:4318";
  bool has_scheme = starts_with(url, "http://") || starts_with(url, "https://");
  if (!url.empty() && !has_scheme && !grpc) {
    r.bad(source, url, "an http:// or https:// URL", fallback);
    url.clear();
    out.endpoint_set = false;
  }
  if (url.empty()) {
    url = fallback;
    has_scheme = true;
  }

  bool insecure = false;
  r.boolean(pick(r, "INSECURE", signal, name) ? name : "OTEL_EXPORTER_OTLP_INSECURE", insecure);
  if (starts_with(url, "https://"))
    out.tls = true;
  else if (starts_with(url, "http://"))
    out.tls = false;
  else
    out.tls = !insecure;  // gRPC host:port: secure unless told otherwise, as the SDKs do

  if (grpc) {
    std::string target = url;
    if (has_scheme) target = target.substr(target.find("://") + 3);
    while (!target.empty() && target.back() == '/') target.pop_back();
    out.endpoint = target;
  } else if (per_signal) {
    out.endpoint = url;
  } else {
    while (!url.empty() && url.back() == '/') url.pop_back();
    out.endpoint = url + "/v1/" + signal;
  }
}

void read_signal(Reader& r, const std::string& signal, const ConfigOverrides& overrides, SignalConfig& out) {
  std::string name;
  if (overrides.protocol) {
    if (!parse_protocol(*overrides.protocol, out.protocol))
      r.bad("option otlp_protocol", *overrides.protocol, "grpc or http/protobuf", "grpc");
  } else if (auto v = pick(r, "PROTOCOL", signal, name)) {
    if (!parse_protocol(trim(*v), out.protocol))
      r.bad(name, *v, "grpc or http/protobuf (http/json is not supported)", "grpc");
  }

  read_endpoint(r, signal, overrides, out);

  if (auto v = pick(r, "HEADERS", signal, name)) {
    std::vector<std::pair<std::string, std::string>> headers;
    if (parse_headers(*v, headers))
      out.headers = std::move(headers);
    else
      // Header values are API keys and tokens: never echoed into a log.
      r.bad(name, "(not shown: it may hold credentials)", "key=value pairs separated by commas, values percent-encoded",
            "no headers");
  }
  r.milliseconds(pick(r, "TIMEOUT", signal, name) ? name : "OTEL_EXPORTER_OTLP_TIMEOUT", out.timeout, 3600000);
  if (auto v = pick(r, "COMPRESSION", signal, name)) {
    std::string c = lower(trim(*v));
    if (c == "gzip")
      out.compression = Compression::gzip;
    else if (c == "none")
      out.compression = Compression::none;
    else
      r.bad(name, *v, "gzip or none", "none");
  }
  if (auto v = pick(r, "CERTIFICATE", signal, name)) out.certificate = *v;
  if (auto v = pick(r, "CLIENT_KEY", signal, name)) out.client_key = *v;
  if (auto v = pick(r, "CLIENT_CERTIFICATE", signal, name)) out.client_certificate = *v;
}

// OTEL_METRICS_EXPORTER, OTEL_TRACES_EXPORTER, OTEL_LOGS_EXPORTER: a
// comma-separated list; the signal goes over OTLP when it is unset or lists
// "otlp". "none" turns it off quietly; any other exporter (console,
// prometheus, zipkin, ...) is not one jvmsight has: one message, and the
// signal is not pushed (Prometheus users have /metrics anyway).
void read_exporter(Reader& r, const std::string& name, SignalConfig& out) {
  auto v = r.get(name);
  if (!v) return;
  bool otlp = false, none = false;
  std::string others;
  std::string list = lower(*v);
  for (size_t pos = 0; pos <= list.size();) {
    size_t comma = std::min(list.find(',', pos), list.size());
    std::string item = trim(list.substr(pos, comma - pos));
    pos = comma + 1;
    if (item == "otlp")
      otlp = true;
    else if (item == "none")
      none = true;
    else if (!item.empty())
      others += (others.empty() ? "" : ",") + item;
  }
  if (!others.empty() && !otlp) r.bad(name, *v, "otlp or none; jvmsight exports only OTLP", "none");
  if (!otlp || none) out.endpoint_set = false;
}

}  // namespace

bool percent_decode(const std::string& in, std::string& out) {
  out.clear();
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size() || !std::isxdigit(static_cast<unsigned char>(in[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(in[i + 2])))
      return false;
    out += static_cast<char>(std::stoi(in.substr(i + 1, 2), nullptr, 16));
    i += 2;
  }
  return true;
}

bool parse_key_value_list(const std::string& text, std::vector<std::pair<std::string, std::string>>& out,
                          std::string& bad_item) {
  out.clear();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = trim(text.substr(pos, comma - pos));
    pos = comma + 1;
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string key = eq == std::string::npos ? "" : trim(item.substr(0, eq));
    std::string value;
    if (key.empty() || !percent_decode(trim(item.substr(eq + 1)), value)) {
      bad_item = item;
      return false;
    }
    out.emplace_back(key, value);
  }
  return true;
}

bool parse_headers(const std::string& text, std::vector<std::pair<std::string, std::string>>& out) {
  std::string bad_item;
  if (!parse_key_value_list(text, out, bad_item)) return false;
  // gRPC metadata keys must be lowercase; HTTP header names are case-insensitive.
  for (auto& [key, value] : out) key = lower(key);
  return true;
}

ParsedConfig parse_config(const EnvLookup& env, const ConfigOverrides& overrides) {
  ParsedConfig parsed;
  Reader r(env, parsed.problems);
  OtlpConfig& c = parsed.config;
  r.boolean("OTEL_SDK_DISABLED", c.sdk_disabled);
  read_signal(r, "metrics", overrides, c.metrics);
  read_signal(r, "traces", overrides, c.traces);
  read_signal(r, "logs", overrides, c.logs);
  read_exporter(r, "OTEL_METRICS_EXPORTER", c.metrics);
  read_exporter(r, "OTEL_TRACES_EXPORTER", c.traces);
  read_exporter(r, "OTEL_LOGS_EXPORTER", c.logs);
  r.milliseconds("OTEL_METRIC_EXPORT_INTERVAL", c.export_interval, 86400000);
  if (c.export_interval.count() < 100) {
    r.bad("OTEL_METRIC_EXPORT_INTERVAL", std::to_string(c.export_interval.count()), "at least 100 ms", "60000");
    c.export_interval = std::chrono::milliseconds(60000);
  }
  r.milliseconds("OTEL_METRIC_EXPORT_TIMEOUT", c.export_timeout, 3600000);
  r.milliseconds("OTEL_BSP_SCHEDULE_DELAY", c.span_delay, 3600000);
  if (c.span_delay.count() < 100) {
    r.bad("OTEL_BSP_SCHEDULE_DELAY", std::to_string(c.span_delay.count()), "at least 100 ms", "5000");
    c.span_delay = std::chrono::milliseconds(5000);
  }
  if (auto v = r.get("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE")) {
    std::string t = lower(trim(*v));
    if (t == "cumulative")
      c.temporality = TemporalityPreference::cumulative;
    else if (t == "delta")
      c.temporality = TemporalityPreference::delta;
    else if (t == "lowmemory")
      c.temporality = TemporalityPreference::lowmemory;
    else
      r.bad("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", *v, "cumulative, delta or lowmemory", "cumulative");
  }
  if (auto v = r.get("OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION")) {
    std::string a = lower(trim(*v));
    if (a == "explicit_bucket_histogram")
      c.histogram_aggregation = HistogramAggregation::explicit_buckets;
    else if (a == "base2_exponential_bucket_histogram")
      c.histogram_aggregation = HistogramAggregation::base2_exponential;
    else
      r.bad("OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION", *v,
            "explicit_bucket_histogram or base2_exponential_bucket_histogram", "explicit_bucket_histogram");
  }
  if (auto v = r.get("OTEL_SERVICE_NAME")) c.service_name = *v;
  if (auto v = r.get("OTEL_RESOURCE_ATTRIBUTES")) c.resource_attributes = *v;
  return parsed;
}

}  // namespace jvmsight::otlp
