#pragma once
// The agent's side of the OTLP plugin (exporters/otlp/otlp_plugin.h):
// libjvmsight-otlp.so is dlopened from the directory libjvmsight.so was
// loaded from, and only when an OTLP endpoint is configured, so a
// Prometheus-only user loads no gRPC, starts no thread and opens no
// connection. Missing or broken plugin: one log line, the agent runs on.
#include <chrono>
#include <memory>
#include <string>

#include "exporters/otlp/otlp_abi.h"
#include "model/deadlock.h"
#include "model/deadlock_sink.h"
#include "model/span.h"
#include "model/telemetry.h"

namespace jvmsight {

struct OtlpPluginSettings {
  std::string endpoint;         // agent option otlp_endpoint ("" = the environment decides)
  std::string protocol;         // agent option otlp_protocol ("" = the environment decides)
  std::string java_properties;  // "name=value\n" lines of otlp::resource_properties
};

// A DeadlockSink: each confirmed deadlock becomes a log record, and so does
// each lock-order inversion and stuck thread (when logs are exported; see
// exports_deadlocks).
class OtlpPlugin : public DeadlockSink {
 public:
  // Null when OTLP is not requested, or the plugin cannot be used (logged).
  static std::unique_ptr<OtlpPlugin> load(const OtlpPluginSettings& settings);

  // Zero when that signal is not exported.
  std::chrono::milliseconds metrics_interval() const {
    return std::chrono::milliseconds(schedule_.metrics_interval_ms);
  }
  std::chrono::milliseconds spans_interval() const { return std::chrono::milliseconds(schedule_.spans_interval_ms); }
  bool exports_deadlocks() const { return schedule_.deadlocks != 0; }
  // Each copies into the plugin's queue for that signal and returns; never
  // waits on the network.
  void push(const MetricFamilies& families) { push_(exporter_, &families); }
  void push_spans(const std::vector<SpanRecord>& spans) { push_spans_(exporter_, &spans); }
  void push_deadlock(const DeadlockReport& report) { push_deadlock_(exporter_, &report); }
  void deadlock_confirmed(const DeadlockReport& report) override;
  void inversion_found(const LockOrderInversion& inversion) override;
  void thread_stuck(const StuckThreadReport& stuck) override;
  void append_self_metrics(MetricFamilies& families) { self_metrics_(exporter_, &families); }
  // The final flush: returns within about `deadline`.
  void shutdown(std::chrono::milliseconds deadline) { shutdown_(exporter_, deadline.count()); }

 private:
  OtlpPlugin() = default;
  jvmsight_otlp* exporter_ = nullptr;
  jvmsight_otlp_schedule schedule_{};
  jvmsight_otlp_push_metrics_fn push_ = nullptr;
  jvmsight_otlp_push_spans_fn push_spans_ = nullptr;
  jvmsight_otlp_push_deadlock_fn push_deadlock_ = nullptr;
  jvmsight_otlp_push_inversion_fn push_inversion_ = nullptr;
  jvmsight_otlp_push_stuck_fn push_stuck_ = nullptr;
  jvmsight_otlp_append_self_metrics_fn self_metrics_ = nullptr;
  jvmsight_otlp_shutdown_fn shutdown_ = nullptr;
};

}  // namespace jvmsight
