#pragma once
// The exporter's configuration, read the OpenTelemetry way: the standard
// OTEL_* environment variables (general and per-signal forms), with agent
// options overriding the common ones. Pure: the environment comes in as a
// lookup function, so tests need no real environment. Every bad value gives
// one message naming the variable and what is expected, and keeps the default.
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jvmsight::otlp {

enum class Protocol { grpc, http_protobuf };
enum class Compression { none, gzip };
// OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE
enum class TemporalityPreference { cumulative, delta, lowmemory };
// OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION
enum class HistogramAggregation { explicit_buckets, base2_exponential };

// One signal's transport settings (metrics, traces or logs).
struct SignalConfig {
  // gRPC: host:port target (scheme stripped); HTTP: the full URL to POST to
  // (the general endpoint + "/v1/<signal>", or the per-signal one as given).
  std::string endpoint;
  bool endpoint_set = false;  // from the environment or an option, not a default
  Protocol protocol = Protocol::grpc;
  bool tls = false;  // https://, or grpc without _INSECURE=true and without http://
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds timeout{10000};
  Compression compression = Compression::none;
  std::string certificate;         // PEM file: trusted roots
  std::string client_key;          // PEM file: mTLS
  std::string client_certificate;  // PEM file: mTLS
};

struct OtlpConfig {
  bool sdk_disabled = false;
  SignalConfig metrics;
  SignalConfig traces;
  SignalConfig logs;
  std::chrono::milliseconds export_interval{60000};
  std::chrono::milliseconds export_timeout{30000};
  std::chrono::milliseconds span_delay{5000};  // OTEL_BSP_SCHEDULE_DELAY: how often spans are sent
  TemporalityPreference temporality = TemporalityPreference::cumulative;
  HistogramAggregation histogram_aggregation = HistogramAggregation::explicit_buckets;
  std::optional<std::string> service_name;  // OTEL_SERVICE_NAME
  std::string resource_attributes;          // OTEL_RESOURCE_ATTRIBUTES, raw (see resource.h)
};

// Agent options that override the environment (e.g. otlp_endpoint=).
struct ConfigOverrides {
  std::optional<std::string> endpoint;
  std::optional<std::string> protocol;
};

using EnvLookup = std::function<const char*(const char* name)>;

struct ParsedConfig {
  OtlpConfig config;
  std::vector<std::string> problems;  // one per bad value; the default was kept
};

ParsedConfig parse_config(const EnvLookup& env, const ConfigOverrides& overrides = {});

// OTEL_EXPORTER_OTLP_HEADERS: "k1=v1,k2=v2", values percent-decoded. False on
// a malformed list (nothing is taken from it then).
bool parse_headers(const std::string& text, std::vector<std::pair<std::string, std::string>>& out);

// RFC 3986 percent-decoding; false on a malformed escape.
bool percent_decode(const std::string& in, std::string& out);
// "k1=v1,k2=v2" with percent-encoded values and blanks around items, the
// form of OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES; empty
// items are skipped. False on the first bad item (returned in bad_item).
bool parse_key_value_list(const std::string& text, std::vector<std::pair<std::string, std::string>>& out,
                          std::string& bad_item);

}  // namespace jvmsight::otlp
