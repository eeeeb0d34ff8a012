#pragma once
// The jvmsight_profile_* families: what the contention profiles kept and
// what their upkeep cost, for each profile that runs.
#include "collectors/collector.h"
#include "collectors/contention/monitor_profile.h"

namespace jvmsight {

class ProfileCollector : public Collector {
 public:
  explicit ProfileCollector(const MonitorProfile& mutex) : mutex_(mutex) {}
  void collect(MetricFamilies& out) override;

 private:
  const MonitorProfile& mutex_;
};

}  // namespace jvmsight
