#pragma once
// The agent's side of the OTLP plugin (exporters/otlp/otlp_plugin.h):
// libjvmsight-otlp.so is dlopened from the directory libjvmsight.so was
// loaded from, and only when an OTLP endpoint is configured, so a
// Prometheus-only user loads no gRPC, starts no thread and opens no
// connection. Missing or broken plugin: one log line, the agent runs on.
#include <chrono>
#include <memory>
#include <string>

#include "exporters/otlp/otlp_plugin.h"
#include "model/telemetry.h"

namespace jvmsight {

struct OtlpPluginSettings {
  std::string endpoint;  // agent option otlp_endpoint ("" = the environment decides)
  std::string protocol;  // agent option otlp_protocol ("" = the environment decides)
  std::string vm_name;
  std::string vm_version;
  std::string java_command;
};

class OtlpPlugin {
 public:
  // Null when OTLP is not requested, or the plugin cannot be used (logged).
  static std::unique_ptr<OtlpPlugin> load(const OtlpPluginSettings& settings);

  std::chrono::milliseconds interval() const { return interval_; }
  // Copies into the plugin's queue and returns; never waits on the network.
  void push(const MetricFamilies& families) { push_(exporter_, &families); }
  void append_self_metrics(MetricFamilies& families) { self_metrics_(exporter_, &families); }
  // The final flush: returns within about `deadline`.
  void shutdown(std::chrono::milliseconds deadline) { shutdown_(exporter_, deadline.count()); }

 private:
  OtlpPlugin() = default;
  jvmsight_otlp* exporter_ = nullptr;
  std::chrono::milliseconds interval_{60000};
  jvmsight_otlp_push_metrics_fn push_ = nullptr;
  jvmsight_otlp_append_self_metrics_fn self_metrics_ = nullptr;
  jvmsight_otlp_shutdown_fn shutdown_ = nullptr;
};

}  // namespace jvmsight
