#include "tests/otlp/integration/pushing_jvm.h"

#include <gtest/gtest.h>

#include "tests/harness/http_client.h"

namespace jvmsight::test {

const Jdk& jdk17() {
  for (const Jdk& j : system_jdks().list())
    if (j.name == "jdk17") return j;
  return system_jdks().list().front();
}

std::string jdk_and_protocol_name(const ::testing::TestParamInfo<JdkAndProtocol>& i) {
  return std::get<0>(i.param).name + "_" + (std::get<1>(i.param) == "grpc" ? "grpc" : "http");
}

std::unique_ptr<OtlpReceiver> start_receiver(const std::string& protocol, const TlsFiles* tls) {
  return protocol == "grpc" ? start_grpc_receiver(tls) : start_http_receiver(tls);
}

PushingJvm::PushingJvm(const Jdk& jdk, const std::string& main_class, std::map<std::string, std::string> env,
                       const std::vector<std::string>& jvm_args, const std::vector<std::string>& args,
                       const std::string& agent_options) {
  for (const char* v : {"OTEL_EXPORTER_OTLP_ENDPOINT",
                        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
                        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                        "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
                        "OTEL_SDK_DISABLED",
                        "OTEL_SERVICE_NAME",
                        "OTEL_RESOURCE_ATTRIBUTES",
                        "OTEL_EXPORTER_OTLP_HEADERS",
                        "OTEL_EXPORTER_OTLP_PROTOCOL",
                        "OTEL_METRIC_EXPORT_INTERVAL",
                        "OTEL_METRIC_EXPORT_TIMEOUT",
                        "OTEL_BSP_SCHEDULE_DELAY",
                        "OTEL_EXPORTER_OTLP_TIMEOUT",
                        "OTEL_EXPORTER_OTLP_COMPRESSION",
                        "OTEL_EXPORTER_OTLP_CERTIFICATE",
                        "OTEL_EXPORTER_OTLP_CLIENT_KEY",
                        "OTEL_EXPORTER_OTLP_CLIENT_CERTIFICATE",
                        "OTEL_EXPORTER_OTLP_INSECURE",
                        "OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE",
                        "OTEL_EXPORTER_OTLP_METRICS_DEFAULT_HISTOGRAM_AGGREGATION",
                        "OTEL_METRICS_EXPORTER",
                        "OTEL_TRACES_EXPORTER",
                        "OTEL_LOGS_EXPORTER"})
    env.emplace(v, "");
  std::vector<std::string> all{agentpath_arg("port=0,host=127.0.0.1,portfile=" + dir.path("port") +
                                             (agent_options.empty() ? "" : "," + agent_options))};
  all.insert(all.end(), jvm_args.begin(), jvm_args.end());
  process = std::make_unique<Process>(java_command(jdk, all, main_class, args), env);
  if (!process->wait_for_line("READY", 60s)) {
    ADD_FAILURE() << main_class << " never became READY; stderr:\n" << process->err();
    return;
  }
  if (auto p = read_portfile(dir.path("port"), 30s))
    port = *p;
  else
    ADD_FAILURE() << "no portfile; stderr:\n" << process->err();
  // The first answered scrape means the agent thread finished its setup, GC
  // notification listener included: a pause before it has no notification
  // and waits 10 s to settle (docs/METRICS.md, Lag).
  if (port != 0) http_get(port, "/metrics");
}

std::map<std::string, std::string> push_env(const OtlpReceiver& r, const std::string& protocol) {
  return {{"OTEL_EXPORTER_OTLP_ENDPOINT", r.endpoint()},
          {"OTEL_EXPORTER_OTLP_PROTOCOL", protocol == "grpc" ? "grpc" : "http/protobuf"},
          {"OTEL_METRIC_EXPORT_INTERVAL", "200"},
          {"OTEL_BSP_SCHEDULE_DELAY", "200"}};
}

const opentelemetry::proto::metrics::v1::Metric* find_metric(const MetricsRequest& r, const std::string& name) {
  for (const auto& rm : r.resource_metrics())
    for (const auto& sm : rm.scope_metrics())
      for (const auto& m : sm.metrics())
        if (m.name() == name) return &m;
  return nullptr;
}

}  // namespace jvmsight::test
