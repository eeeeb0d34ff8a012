#pragma once
// The JVM runtime and process families prometheus/client_java exports, in
// either or both generations of its names: 0.x (simpleclient_hotspot) and
// 1.x (prometheus-metrics-instrumentation-jvm). Names, types, labels and
// HELP are client_java's (docs/METRICS.md, compatibility table). Most
// families have one name in both generations and are written once; the
// memory area and pool families and the info metric were renamed, and are
// written in each chosen generation. Pure: no JVM.
#include "collectors/runtime/process_stats.h"
#include "collectors/runtime/runtime_mx_beans.h"
#include "model/telemetry.h"

namespace jvmsight {

struct NameGenerations {
  bool v0 = true;  // jvm_memory_bytes_used, jvm_info, ...
  bool v1 = true;  // jvm_memory_used_bytes, jvm_runtime_info, ...
};

// What jvm_info / jvm_runtime_info carry: java.runtime.version,
// java.vm.vendor, java.runtime.name ("unknown" when unset).
struct JvmIdentity {
  std::string version = "unknown";
  std::string vendor = "unknown";
  std::string runtime = "unknown";
};

void add_runtime_families(MetricFamilies& out, const RuntimeReading& jvm, const JvmIdentity& identity,
                          NameGenerations names);
void add_process_families(MetricFamilies& out, const ProcessStats& process);

}  // namespace jvmsight
