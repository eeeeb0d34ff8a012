#include "collectors/gc/pool_allocation.h"

#include <algorithm>

#include "model/metric_catalogue.h"

namespace jvmsight {

void PoolAllocation::on_collection(const std::vector<PoolUsageChange>& pools) {
  for (const auto& p : pools) {
    int64_t& last = last_after_[p.pool];
    int64_t grown = std::max<int64_t>(p.before_used - last, 0) + std::max<int64_t>(p.after_used - p.before_used, 0);
    last = p.after_used;
    if (grown > 0) allocated_[p.pool] += static_cast<double>(grown);
  }
}

void PoolAllocation::collect(MetricFamilies& out) const {
  auto& f = add_family(out, "jvm_memory_pool_allocated_bytes_total");
  for (const auto& [pool, bytes] : allocated_) add_sample(f, bytes, {{"pool", pool}});
}

}  // namespace jvmsight
