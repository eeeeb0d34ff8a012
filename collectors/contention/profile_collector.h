#pragma once
// The jvmsight_profile_* families: what the contention profiles kept and
// what their upkeep cost, for each profile that runs.
#include "collectors/collector.h"
#include "collectors/contention/block_profile.h"
#include "collectors/contention/monitor_profile.h"

namespace jvmsight {

class ProfileCollector : public Collector {
 public:
  // Either may be null: that profile does not run.
  ProfileCollector(const MonitorProfile* mutex, const BlockProfile* block) : mutex_(mutex), block_(block) {}
  void collect(MetricFamilies& out) override;

 private:
  const MonitorProfile* mutex_;
  const BlockProfile* block_;
};

}  // namespace jvmsight
