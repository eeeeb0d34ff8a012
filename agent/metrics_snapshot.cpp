#include "agent/metrics_snapshot.h"

#include <algorithm>

#include "agent/version.h"
#include "model/metric_catalogue.h"

namespace jvmsight {

MetricFamilies MetricsSnapshot::collect() {
  MetricFamilies out = collectors_.collect();
  if (options_.client_java_names == ClientJavaNames::off)
    out.erase(
        std::remove_if(out.begin(), out.end(), [](const MetricFamily& f) { return f.name.rfind("jvmsight_", 0) != 0; }),
        out.end());
  add_sample(add_family(out, "jvmsight_build_info"), 1,
             {{"version", version}, {"jdk", jdk_version_}, {"vm", vm_name_}});
  if (otlp_) otlp_->append_self_metrics(out);
  return out;
}

}  // namespace jvmsight
