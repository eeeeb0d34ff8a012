// Environment parsing: the OTEL_* variables, per-signal precedence, agent
// option overrides, and one clear message per bad value with defaults kept.
#include "exporters/otlp/otlp_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace jvmsight::otlp {
namespace {

struct FakeEnv {
  std::map<std::string, std::string> vars;
  EnvLookup lookup() const {
    return [this](const char* name) -> const char* {
      auto it = vars.find(name);
      return it == vars.end() ? nullptr : it->second.c_str();
    };
  }
};

TEST(OtlpConfig, DefaultsWithoutEnvironment) {
  FakeEnv env;
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_TRUE(p.problems.empty());
  EXPECT_FALSE(p.config.metrics.endpoint_set);
  EXPECT_EQ(p.config.metrics.protocol, Protocol::grpc);
  EXPECT_EQ(p.config.metrics.endpoint, "localhost:4317");
  EXPECT_FALSE(p.config.metrics.tls);
  EXPECT_EQ(p.config.metrics.timeout.count(), 10000);
  EXPECT_EQ(p.config.export_interval.count(), 60000);
  EXPECT_EQ(p.config.export_timeout.count(), 30000);
  EXPECT_EQ(p.config.temporality, TemporalityPreference::cumulative);
  EXPECT_FALSE(p.config.sdk_disabled);
  EXPECT_EQ(p.config.span_delay.count(), 5000);
}

// OTEL_BSP_SCHEDULE_DELAY: how often spans are sent; below 100 ms or not a
// number is one message and the default.
TEST(OtlpConfig, SpanDelayFromTheBatchProcessorVariable) {
  FakeEnv env;
  env.vars["OTEL_BSP_SCHEDULE_DELAY"] = "250";
  EXPECT_EQ(parse_config(env.lookup()).config.span_delay.count(), 250);
  for (const char* bad : {"5", "soon"}) {
    env.vars["OTEL_BSP_SCHEDULE_DELAY"] = bad;
    ParsedConfig p = parse_config(env.lookup());
    EXPECT_EQ(p.config.span_delay.count(), 5000) << bad;
    ASSERT_EQ(p.problems.size(), 1u) << bad;
    EXPECT_NE(p.problems[0].find("OTEL_BSP_SCHEDULE_DELAY"), std::string::npos);
  }
}

// Traces and logs have endpoints of their own: a per-signal endpoint turns
// on that signal alone.
TEST(OtlpConfig, PerSignalEndpointTurnsOnThatSignalOnly) {
  FakeEnv env;
  env.vars["OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"] = "http://logs:4318/custom";
  env.vars["OTEL_EXPORTER_OTLP_LOGS_PROTOCOL"] = "http/protobuf";
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_TRUE(p.config.logs.endpoint_set);
  EXPECT_EQ(p.config.logs.endpoint, "http://logs:4318/custom");
  EXPECT_FALSE(p.config.metrics.endpoint_set);
  EXPECT_FALSE(p.config.traces.endpoint_set);
  env.vars["OTEL_EXPORTER_OTLP_ENDPOINT"] = "http://all:4318";
  env.vars["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf";
  p = parse_config(env.lookup());
  EXPECT_EQ(p.config.traces.endpoint, "http://all:4318/v1/traces");
  EXPECT_EQ(p.config.logs.endpoint, "http://logs:4318/custom");
}

TEST(OtlpConfig, HttpAppendsSignalPathToGeneralEndpointButNotToPerSignal) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"},
              {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/"},
              {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://traces.example/custom"}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_TRUE(p.problems.empty());
  EXPECT_EQ(p.config.metrics.endpoint, "http://collector:4318/v1/metrics");
  EXPECT_EQ(p.config.logs.endpoint, "http://collector:4318/v1/logs");
  EXPECT_EQ(p.config.traces.endpoint, "https://traces.example/custom");
  EXPECT_TRUE(p.config.traces.tls);
  EXPECT_FALSE(p.config.metrics.tls);
}

TEST(OtlpConfig, GrpcTargetAndTlsFromScheme) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_ENDPOINT", "https://collector.example:4317"}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_EQ(p.config.metrics.endpoint, "collector.example:4317");
  EXPECT_TRUE(p.config.metrics.tls);
  EXPECT_TRUE(p.config.metrics.endpoint_set);

  env.vars = {{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4317"}, {"OTEL_EXPORTER_OTLP_INSECURE", "TRUE"}};
  p = parse_config(env.lookup());
  EXPECT_EQ(p.config.metrics.endpoint, "collector:4317");
  EXPECT_FALSE(p.config.metrics.tls);
}

TEST(OtlpConfig, PerSignalValuesWinOverGeneral) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_TIMEOUT", "2000"},
              {"OTEL_EXPORTER_OTLP_METRICS_TIMEOUT", "700"},
              {"OTEL_EXPORTER_OTLP_HEADERS", "a=1"},
              {"OTEL_EXPORTER_OTLP_METRICS_HEADERS", "b=2"},
              {"OTEL_EXPORTER_OTLP_METRICS_COMPRESSION", "gzip"},
              {"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/protobuf"}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_TRUE(p.problems.empty());
  EXPECT_EQ(p.config.metrics.timeout.count(), 700);
  EXPECT_EQ(p.config.traces.timeout.count(), 2000);
  ASSERT_EQ(p.config.metrics.headers.size(), 1u);
  EXPECT_EQ(p.config.metrics.headers[0].first, "b");
  EXPECT_EQ(p.config.traces.headers[0].first, "a");
  EXPECT_EQ(p.config.metrics.compression, Compression::gzip);
  EXPECT_EQ(p.config.traces.compression, Compression::none);
  EXPECT_EQ(p.config.metrics.protocol, Protocol::http_protobuf);
  EXPECT_EQ(p.config.traces.protocol, Protocol::grpc);
}

TEST(OtlpConfig, AgentOptionsOverrideEnvironment) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://from-env:4317"},
              {"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://from-env-metrics:4317"}};
  ParsedConfig p = parse_config(env.lookup(), {std::string("http://127.0.0.1:5555"), std::string("http/protobuf")});
  EXPECT_TRUE(p.problems.empty());
  EXPECT_EQ(p.config.metrics.endpoint, "http://127.0.0.1:5555/v1/metrics");
  EXPECT_EQ(p.config.metrics.protocol, Protocol::http_protobuf);
}

TEST(OtlpConfig, HeadersArePercentDecodedAndKeysLowercased) {
  std::vector<std::pair<std::string, std::string>> h;
  ASSERT_TRUE(parse_headers("Api-Key=secret%20value, x-tenant = acme%2Cinc ,", h));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], (std::pair<std::string, std::string>{"api-key", "secret value"}));
  EXPECT_EQ(h[1], (std::pair<std::string, std::string>{"x-tenant", "acme,inc"}));
  EXPECT_FALSE(parse_headers("novalue", h));
  EXPECT_FALSE(parse_headers("k=%zz", h));
}

// Each bad value: exactly one message naming the variable and the value, and
// the default kept; the good values beside it still apply.
TEST(OtlpConfig, BadValuesGiveOneMessageEachAndKeepDefaults) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_METRICS_TIMEOUT", "soon"},
              {"OTEL_METRIC_EXPORT_INTERVAL", "-5"},
              {"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/json"},
              {"OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "sometimes"},
              {"OTEL_EXPORTER_OTLP_METRICS_COMPRESSION", "brotli"},
              {"OTEL_SDK_DISABLED", "yes"},
              {"OTEL_METRIC_EXPORT_TIMEOUT", "1500"}};
  ParsedConfig p = parse_config(env.lookup());
  ASSERT_EQ(p.problems.size(), 6u) << ::testing::PrintToString(p.problems);
  auto mentions = [&](const std::string& var, const std::string& value) {
    for (const auto& m : p.problems)
      if (m.find(var) != std::string::npos && m.find("'" + value + "'") != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(mentions("OTEL_EXPORTER_OTLP_METRICS_TIMEOUT", "soon"));
  EXPECT_TRUE(mentions("OTEL_METRIC_EXPORT_INTERVAL", "-5"));
  EXPECT_TRUE(mentions("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "http/json"));
  EXPECT_TRUE(mentions("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "sometimes"));
  EXPECT_TRUE(mentions("OTEL_EXPORTER_OTLP_METRICS_COMPRESSION", "brotli"));
  EXPECT_TRUE(mentions("OTEL_SDK_DISABLED", "yes"));
  EXPECT_EQ(p.config.metrics.timeout.count(), 10000);
  EXPECT_EQ(p.config.export_interval.count(), 60000);
  EXPECT_EQ(p.config.metrics.protocol, Protocol::grpc);
  EXPECT_EQ(p.config.temporality, TemporalityPreference::cumulative);
  EXPECT_EQ(p.config.metrics.compression, Compression::none);
  EXPECT_FALSE(p.config.sdk_disabled);
  EXPECT_EQ(p.config.export_timeout.count(), 1500);
}

// A malformed headers variable is reported without its value, which
// usually holds an API key.
TEST(OtlpConfig, BadHeadersAreReportedWithoutTheirSecret) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_HEADERS", "api-key=s3cr3t-k3y,broken"}};
  ParsedConfig p = parse_config(env.lookup());
  ASSERT_EQ(p.problems.size(), 1u) << ::testing::PrintToString(p.problems);
  EXPECT_NE(p.problems[0].find("OTEL_EXPORTER_OTLP_HEADERS"), std::string::npos) << p.problems[0];
  EXPECT_EQ(p.problems[0].find("s3cr3t"), std::string::npos) << p.problems[0];
  EXPECT_TRUE(p.config.metrics.headers.empty());
}

TEST(OtlpConfig, HttpEndpointWithoutSchemeIsRejected) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"}, {"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_FALSE(p.config.metrics.endpoint_set);
  EXPECT_EQ(p.config.metrics.endpoint, "http://localhost:4318/v1/metrics");
  EXPECT_FALSE(p.problems.empty());
}

// OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION: the spec's two
// values; anything else is one warning and the default, explicit buckets.
TEST(OtlpConfig, DefaultHistogramAggregation) {
  FakeEnv env;
  EXPECT_EQ(parse_config(env.lookup()).config.histogram_aggregation, HistogramAggregation::explicit_buckets);
  env.vars["OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION"] = "base2_exponential_bucket_histogram";
  EXPECT_EQ(parse_config(env.lookup()).config.histogram_aggregation, HistogramAggregation::base2_exponential);
  env.vars["OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION"] = "explicit_bucket_histogram";
  EXPECT_EQ(parse_config(env.lookup()).config.histogram_aggregation, HistogramAggregation::explicit_buckets);
  env.vars["OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION"] = "exponential";
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_EQ(p.config.histogram_aggregation, HistogramAggregation::explicit_buckets);
  ASSERT_EQ(p.problems.size(), 1u);
  EXPECT_NE(p.problems[0].find("OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION='exponential' is not valid"),
            std::string::npos)
      << p.problems[0];
}

TEST(OtlpConfig, TemporalityAndDisabled) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE", "Delta"}, {"OTEL_SDK_DISABLED", "true"}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_EQ(p.config.temporality, TemporalityPreference::delta);
  EXPECT_TRUE(p.config.sdk_disabled);
}

}  // namespace
}  // namespace jvmsight::otlp

namespace jvmsight::otlp {
namespace {
// The general variable applies to three signals; its problem is told once.
TEST(OtlpConfig, BadGeneralValueIsReportedOnce) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_PROTOCOL", "http"}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_EQ(p.problems.size(), 1u) << ::testing::PrintToString(p.problems);
  EXPECT_EQ(p.config.metrics.protocol, Protocol::grpc);
}
}  // namespace
}  // namespace jvmsight::otlp

namespace jvmsight::otlp {
namespace {
// OTEL_<SIGNAL>S_EXPORTER as the SDKs read it: unset or "otlp" exports,
// "none" turns the signal off, an exporter jvmsight lacks is one message.
TEST(OtlpConfig, SignalExportersNoneTurnSignalsOff) {
  FakeEnv env;
  env.vars = {{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317"},
              {"OTEL_TRACES_EXPORTER", "none"},
              {"OTEL_LOGS_EXPORTER", " OTLP "}};
  ParsedConfig p = parse_config(env.lookup());
  EXPECT_TRUE(p.config.metrics.endpoint_set);
  EXPECT_FALSE(p.config.traces.endpoint_set);
  EXPECT_TRUE(p.config.logs.endpoint_set);
  EXPECT_TRUE(p.problems.empty()) << ::testing::PrintToString(p.problems);

  env.vars = {{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4317"},
              {"OTEL_METRICS_EXPORTER", "prometheus"},
              {"OTEL_LOGS_EXPORTER", "console,otlp"}};
  p = parse_config(env.lookup());
  EXPECT_FALSE(p.config.metrics.endpoint_set);
  EXPECT_TRUE(p.config.traces.endpoint_set);
  EXPECT_TRUE(p.config.logs.endpoint_set);
  ASSERT_EQ(p.problems.size(), 1u) << ::testing::PrintToString(p.problems);
  EXPECT_NE(p.problems[0].find("OTEL_METRICS_EXPORTER"), std::string::npos);
}
}  // namespace
}  // namespace jvmsight::otlp
