#include "collectors/contention/profile_collector.h"

namespace jvmsight {

void ProfileCollector::collect(MetricFamilies& out) {
  const ProfileCounts c = mutex_.counts();
  const std::vector<Label> mutex{{"profile", "mutex"}};
  add_sample(add_family(out, "jvmsight_profile_samples_total"), static_cast<double>(c.samples), mutex);
  add_sample(add_family(out, "jvmsight_profile_stacks"), static_cast<double>(c.stacks), mutex);
  add_sample(add_family(out, "jvmsight_profile_stacks_dropped_total"), static_cast<double>(c.dropped), mutex);
  add_sample(add_family(out, "jvmsight_profile_cpu_seconds_total"), static_cast<double>(c.cpu_ns) / 1e9, mutex);
}

}  // namespace jvmsight
