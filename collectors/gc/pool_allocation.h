#pragma once
// jvm_memory_pool_allocated_bytes_total, as client_java counts it: from GC
// notifications only (so it moves after each collection, not in between).
// Per pool, each collection adds what the pool grew since the previous
// collection left it (allocation into eden, between GCs) plus what it grew
// during this one (promotion into survivor and old spaces); shrinking counts
// as nothing. Pure: fed on the agent thread by the GC collector.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collectors/gc/gc_pause_matcher.h"
#include "model/telemetry.h"

namespace jvmsight {

class PoolAllocation {
 public:
  void on_collection(const std::vector<PoolUsageChange>& pools);
  // The family, with a series for each pool that has grown at least once.
  void collect(MetricFamilies& out) const;

 private:
  std::map<std::string, int64_t> last_after_;  // used bytes each pool was left with
  std::map<std::string, double> allocated_;
};

}  // namespace jvmsight
