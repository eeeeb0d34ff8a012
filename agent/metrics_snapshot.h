#pragma once
// What a scrape or an OTLP push gets, on the agent thread: the collectors'
// families in their order, jvmsight_build_info, and the OTLP plugin's own
// counters. With client_java_names=off, only what jvmsight alone has (a JVM
// that runs client_java too gets no second copy of its families).
#include <string>

#include "agent/otlp_plugin_loader.h"
#include "collectors/collector_set.h"
#include "model/telemetry.h"
#include "options/options.h"

namespace jvmsight {

class MetricsSnapshot {
 public:
  MetricsSnapshot(const Options& options, CollectorSet& collectors) : options_(options), collectors_(collectors) {}
  // At VMInit (some properties are not set at OnLoad); otlp may be null.
  void set_vm(std::string version, std::string name, OtlpPlugin* otlp) {
    jdk_version_ = std::move(version);
    vm_name_ = std::move(name);
    otlp_ = otlp;
  }
  MetricFamilies collect();

 private:
  const Options& options_;
  CollectorSet& collectors_;
  std::string jdk_version_;
  std::string vm_name_;
  OtlpPlugin* otlp_ = nullptr;
};

}  // namespace jvmsight
