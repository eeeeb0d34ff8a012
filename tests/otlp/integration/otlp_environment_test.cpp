// The OTel SDK's environment end to end: real JVMs pushing to real grpc++ and
// HTTP receivers, one JVM per scenario, JDK 17 only (the variables are read
// by the agent's own code, whatever the JDK: docs/TESTING.md).
// - per signal: endpoint, protocol, headers and compression of metrics and
//   traces (and of logs, in a JVM with a deadlock) differ, each arrives
//   where and as its variables say; the HTTP
//   path rules (general endpoint + /v1/<signal>, per-signal one as given);
//   OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES on every signal;
// - OTEL_TRACES_EXPORTER=none sends no span while metrics still go, every
//   OTEL_METRIC_EXPORT_INTERVAL; an unknown histogram aggregation is one
//   warning and explicit buckets;
// - the per-signal timeout bounds a request, OTEL_METRIC_EXPORT_TIMEOUT a
//   batch;
// - OTEL_SDK_DISABLED=true sends nothing, and /metrics still answers.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "tests/harness/http_client.h"
#include "tests/harness/prometheus_text.h"
#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

using opentelemetry::proto::resource::v1::Resource;

std::string resource_attribute(const Resource& r, const std::string& key) {
  for (const auto& kv : r.attributes())
    if (kv.key() == key) return kv.value().string_value();
  return "<absent>";
}

size_t span_count(const OtlpReceiver& r) {
  size_t n = 0;
  for (const auto& t : r.received("traces"))
    for (const auto& rs : t.traces.resource_spans())
      for (const auto& ss : rs.scope_spans()) n += static_cast<size_t>(ss.spans_size());
  return n;
}

// Makes GC pauses, each one a span with gc_span_min_ms=0.
void collect_garbage(PushingJvm& jvm) {
  jvm.process->send("churn 2 100");
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));
}

TEST(OtlpEnvironment, EachSignalGoesWhereAndHowItsVariablesSay) {
  auto grpc = start_grpc_receiver();  // metrics
  auto http = start_http_receiver();  // traces
  ASSERT_TRUE(grpc && http);
  std::map<std::string, std::string> env{
      // General: HTTP to `http`, where traces go with /v1/traces appended.
      {"OTEL_EXPORTER_OTLP_ENDPOINT", http->endpoint()},
      {"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"},
      {"OTEL_EXPORTER_OTLP_HEADERS", "x-general=all%20signals"},
      // Metrics: their own receiver, protocol and headers (which replace
      // the general ones), uncompressed.
      {"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", grpc->endpoint()},
      {"OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "grpc"},
      {"OTEL_EXPORTER_OTLP_METRICS_HEADERS", "x-metrics=only%2Cmetrics"},
      // Traces gzip-compressed.
      {"OTEL_EXPORTER_OTLP_TRACES_COMPRESSION", "gzip"},
      {"OTEL_SERVICE_NAME", "env-test"},
      {"OTEL_RESOURCE_ATTRIBUTES", "deployment.environment.name=ci,service.namespace=jvmsight"},
      {"OTEL_METRIC_EXPORT_INTERVAL", "200"},
      {"OTEL_BSP_SCHEDULE_DELAY", "200"}};
  PushingJvm jvm(jdk17(), "GcChurn", env, {"-XX:+UseSerialGC", "-Xmx256m"}, {}, "gc_span_min_ms=0");
  ASSERT_GT(jvm.port, 0);
  collect_garbage(jvm);
  ASSERT_TRUE(grpc->wait_for_more_than(0, 15s)) << jvm.process->err();
  ASSERT_TRUE(http->wait_for_more_than(0, 15s, "traces")) << jvm.process->err();

  const auto metrics = grpc->received().back();
  EXPECT_EQ(metrics.headers.count("x-metrics") ? metrics.headers.at("x-metrics") : "<absent>", "only,metrics");
  EXPECT_EQ(metrics.headers.count("x-general"), 0u) << "per-signal headers replace the general ones";
  const Resource& mr = metrics.request.resource_metrics(0).resource();
  EXPECT_EQ(resource_attribute(mr, "service.name"), "env-test");
  EXPECT_EQ(resource_attribute(mr, "deployment.environment.name"), "ci");

  const auto traces = http->received("traces").back();
  EXPECT_EQ(traces.headers.count("x-general") ? traces.headers.at("x-general") : "<absent>", "all signals");
  EXPECT_EQ(traces.headers.count("x-metrics"), 0u);
  // The receiver gunzipped the body (a body that is no gzip is refused).
  EXPECT_EQ(traces.headers.count("content-encoding") ? traces.headers.at("content-encoding") : "", "gzip");
  const Resource& tr = traces.traces.resource_spans(0).resource();
  EXPECT_EQ(resource_attribute(tr, "service.name"), "env-test");
  EXPECT_EQ(resource_attribute(tr, "service.namespace"), "jvmsight");

  EXPECT_TRUE(http->received("metrics").empty()) << "metrics went to the general endpoint";
  EXPECT_TRUE(grpc->received("traces").empty()) << "traces went to the metrics endpoint";
  EXPECT_EQ(grpc->received().back().headers.count("content-encoding"), 0u);
}

TEST(OtlpEnvironment, PerSignalHttpEndpointIsUsedAsGivenAndNoneTurnsASignalOff) {
  auto http = start_http_receiver();
  ASSERT_TRUE(http);
  constexpr int interval_ms = 400;
  // As given: with /v1/metrics appended once more the receiver answers 404.
  std::map<std::string, std::string> env{{"OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", http->endpoint() + "/v1/metrics"},
                                         {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", http->endpoint() + "/v1/traces"},
                                         {"OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"},
                                         {"OTEL_TRACES_EXPORTER", "none"},
                                         {"OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION", "exponential"},
                                         {"OTEL_METRIC_EXPORT_INTERVAL", std::to_string(interval_ms)},
                                         {"OTEL_BSP_SCHEDULE_DELAY", "200"}};
  PushingJvm jvm(jdk17(), "GcChurn", env, {"-XX:+UseSerialGC", "-Xmx256m"}, {}, "gc_span_min_ms=0");
  ASSERT_GT(jvm.port, 0);
  collect_garbage(jvm);
  ASSERT_TRUE(http->wait_for_more_than(4, 20s)) << jvm.process->err();
  std::this_thread::sleep_for(1s);  // several span pushes' worth
  EXPECT_EQ(span_count(*http), 0u) << "OTEL_TRACES_EXPORTER=none";
  // Pushes every OTEL_METRIC_EXPORT_INTERVAL (a slow machine may make one
  // late, so only the median gap is bounded above).
  const auto got = http->received();
  std::vector<long> gaps;
  for (size_t i = 1; i < got.size(); ++i)
    gaps.push_back(std::chrono::duration_cast<std::chrono::milliseconds>(got[i].at - got[i - 1].at).count());
  std::sort(gaps.begin(), gaps.end());
  ASSERT_FALSE(gaps.empty());
  // The agent thread collects `interval` after the previous collection
  // ended; the plugin's thread sends it, so one send held up on a loaded
  // machine shortens the next gap: the mean is bounded below, not each gap.
  const long mean = std::chrono::duration_cast<std::chrono::milliseconds>(got.back().at - got.front().at).count() /
                    static_cast<long>(gaps.size());
  EXPECT_GE(mean, interval_ms * 3 / 4);
  EXPECT_LE(gaps[gaps.size() / 2], interval_ms * 3);
  // An aggregation the spec does not name: one warning, explicit buckets.
  const std::string err = jvm.process->err();
  const std::string warning = "OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION='exponential' is not valid";
  const size_t at = err.find(warning);
  EXPECT_NE(at, std::string::npos) << err;
  EXPECT_EQ(err.find(warning, at + 1), std::string::npos) << "told more than once:\n" << err;
  // The forced collection's pause is exported once the agent has matched
  // it with its notification, which a loaded machine may delay by seconds.
  auto latest = http->received();
  for (auto until = std::chrono::steady_clock::now() + 15s; std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(200ms), latest = http->received()) {
    if (find_metric(latest.back().request, "jvm.gc.duration") != nullptr) break;
  }
  const auto* gc = find_metric(latest.back().request, "jvm.gc.duration");
  ASSERT_NE(gc, nullptr);
  EXPECT_TRUE(gc->has_histogram());
}

// Logs by their own variables (HTTP, own path, headers, gzip) while the
// general endpoint is gRPC, and OTEL_METRICS_EXPORTER=none: the deadlock
// record arrives where the logs variables say, no metrics anywhere.
TEST(OtlpEnvironment, LogsGoTheirOwnWayWhileMetricsAreOff) {
  auto grpc = start_grpc_receiver();  // general
  auto http = start_http_receiver();  // logs
  ASSERT_TRUE(grpc && http);
  std::map<std::string, std::string> env{{"OTEL_EXPORTER_OTLP_ENDPOINT", grpc->endpoint()},
                                         {"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"},
                                         {"OTEL_EXPORTER_OTLP_HEADERS", "x-general=1"},
                                         {"OTEL_EXPORTER_OTLP_LOGS_ENDPOINT", http->endpoint() + "/v1/logs"},
                                         {"OTEL_EXPORTER_OTLP_LOGS_PROTOCOL", "http/protobuf"},
                                         {"OTEL_EXPORTER_OTLP_LOGS_HEADERS", "x-logs=deadlocks"},
                                         {"OTEL_EXPORTER_OTLP_LOGS_COMPRESSION", "gzip"},
                                         {"OTEL_METRICS_EXPORTER", "none"},
                                         {"OTEL_METRIC_EXPORT_INTERVAL", "200"}};
  PushingJvm jvm(jdk17(), "Deadlocks", env, {}, {"monitor2"}, "deadlock_check_ms=100");
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED", 30s)) << jvm.process->err();
  ASSERT_TRUE(http->wait_for_more_than(0, 20s, "logs")) << jvm.process->err();
  std::this_thread::sleep_for(1s);  // five metric intervals
  const auto logs = http->received("logs").front();
  EXPECT_EQ(logs.headers.count("x-logs") ? logs.headers.at("x-logs") : "<absent>", "deadlocks");
  EXPECT_EQ(logs.headers.count("x-general"), 0u);
  EXPECT_EQ(logs.headers.count("content-encoding") ? logs.headers.at("content-encoding") : "", "gzip");
  EXPECT_EQ(logs.logs.resource_logs(0).scope_logs(0).log_records(0).event_name(), "jvmsight.deadlock");
  EXPECT_TRUE(grpc->received("logs").empty());
  EXPECT_TRUE(grpc->received("metrics").empty()) << "OTEL_METRICS_EXPORTER=none";
  EXPECT_TRUE(http->received("metrics").empty()) << "OTEL_METRICS_EXPORTER=none";
}

// OTEL_EXPORTER_OTLP_METRICS_TIMEOUT bounds each metrics request, not the
// general OTEL_EXPORTER_OTLP_TIMEOUT: a receiver answering 3 s late is left
// after about 400 ms. OTEL_METRIC_EXPORT_TIMEOUT bounds a batch with its
// retries: it is given up (counted failed) instead of retried on.
TEST(OtlpEnvironment, PerSignalTimeoutBoundsEachRequest) {
  auto grpc = start_grpc_receiver();
  ASSERT_TRUE(grpc);
  grpc->set_reply_delay(3s);
  auto env = push_env(*grpc, "grpc");
  env["OTEL_EXPORTER_OTLP_TIMEOUT"] = "10000";
  env["OTEL_EXPORTER_OTLP_METRICS_TIMEOUT"] = "400";
  env["OTEL_METRIC_EXPORT_TIMEOUT"] = "1500";
  PushingJvm jvm(jdk17(), "GcChurn", env);
  ASSERT_GT(jvm.port, 0);
  for (auto until = std::chrono::steady_clock::now() + 10s;
       grpc->abandoned().empty() && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(100ms);
  const auto waits = grpc->abandoned();
  ASSERT_FALSE(waits.empty()) << jvm.process->err();
  EXPECT_GE(waits.front().count(), 300);
  EXPECT_LE(waits.front().count(), 2000);
  double failed = 0;
  for (auto until = std::chrono::steady_clock::now() + 10s; failed < 1 && std::chrono::steady_clock::now() < until;
       std::this_thread::sleep_for(200ms))
    failed = PromScrape(http_get(jvm.port, "/metrics").body)
                 .value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "failed"}})
                 .value_or(0);
  EXPECT_GE(failed, 1) << "no batch given up after OTEL_METRIC_EXPORT_TIMEOUT";
}

TEST(OtlpEnvironment, SdkDisabledSendsNothingAndMetricsStillAnswer) {
  auto http = start_http_receiver();
  ASSERT_TRUE(http);
  auto env = push_env(*http, "http/protobuf");
  env["OTEL_SDK_DISABLED"] = "true";
  PushingJvm jvm(jdk17(), "GcChurn", env, {"-XX:+UseSerialGC", "-Xmx256m"}, {}, "gc_span_min_ms=0");
  ASSERT_GT(jvm.port, 0);
  collect_garbage(jvm);
  EXPECT_FALSE(http->wait_for_more_than(0, 1500ms)) << "metrics pushed";
  EXPECT_EQ(span_count(*http), 0u);
  auto scrape = http_get(jvm.port, "/metrics");
  EXPECT_EQ(scrape.status, 200);
  EXPECT_NE(scrape.body.find("jvm_threads_current "), std::string::npos);
  EXPECT_EQ(scrape.body.find("jvmsight_otlp_exports_total"), std::string::npos) << "the exporter was loaded";
}

}  // namespace
}  // namespace jvmsight::test
