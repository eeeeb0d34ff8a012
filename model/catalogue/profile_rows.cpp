// The contention profiles' upkeep (/debug/pprof/mutex and /block;
// docs/PROFILES.md). A declarative table.
#include "model/catalogue/rows.h"

namespace jvmsight::catalogue {

void add_profile_rows(std::vector<MetricDef>& rows) {
  const AttributeRename profile = kept("profile", {"mutex", "block"});
  rows.push_back(own("jvmsight_profile_samples_total", MetricType::counter,
                     "Waits kept in a contention profile (sampled by waiting time; each stands for its estimate)",
                     "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_stacks", MetricType::gauge,
                     "Distinct stacks a contention profile holds (at most 16,384)", "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_stacks_dropped_total", MetricType::counter,
                     "Waits at a stack not seen before that found the profile's stack table full (counted under the "
                     "\"[other]\" stack)",
                     "profiles", {profile}));
  rows.push_back(own("jvmsight_profile_cpu_seconds_total", MetricType::counter,
                     "CPU time the agent thread spent naming frames, sampling and building a contention profile",
                     "profiles", {profile}));
}

}  // namespace jvmsight::catalogue
