#include "collectors/contention/profile_collector.h"

#include <string>
#include <utility>

namespace jvmsight {

void ProfileCollector::collect(MetricFamilies& out) {
  std::vector<std::pair<std::string, ProfileCounts>> profiles;
  if (mutex_) profiles.emplace_back("mutex", mutex_->counts());
  if (block_) profiles.emplace_back("block", block_->counts());
  // One family at a time: adding one may move the others.
  auto family = [&](const char* name, auto value) {
    MetricFamily& f = add_family(out, name);
    for (const auto& [profile, c] : profiles) add_sample(f, value(c), {{"profile", profile}});
  };
  family("jvmsight_profile_samples_total", [](const ProfileCounts& c) { return static_cast<double>(c.samples); });
  family("jvmsight_profile_stacks", [](const ProfileCounts& c) { return static_cast<double>(c.stacks); });
  family("jvmsight_profile_stacks_dropped_total",
         [](const ProfileCounts& c) { return static_cast<double>(c.dropped); });
  family("jvmsight_profile_cpu_seconds_total",
         [](const ProfileCounts& c) { return static_cast<double>(c.cpu_ns) / 1e9; });
  if (block_)
    add_sample(add_family(out, "jvmsight_profile_interval_seconds"),
               static_cast<double>(block_->counts().interval_ns) / 1e9, {{"profile", "block"}});
}

}  // namespace jvmsight
