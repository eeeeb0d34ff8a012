// jvm_memory_pool_allocated_bytes_total from GC notifications, as client_java
// counts it.
#include "collectors/gc/pool_allocation.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

double allocated(const PoolAllocation& a, const std::string& pool) {
  MetricFamilies out;
  a.collect(out);
  for (const auto& s : find_family(out, "jvm_memory_pool_allocated_bytes_total")->samples)
    if (s.labels.at(0).value == pool) return s.value;
  return -1;
}

TEST(PoolAllocation, EdenCountsWhatFilledItSinceTheLastCollection) {
  PoolAllocation a;
  a.on_collection({{"Eden", 100, 0}});   // 100 allocated since the start, emptied
  a.on_collection({{"Eden", 250, 10}});  // 250 more; 10 left behind
  a.on_collection({{"Eden", 60, 0}});    // 50 more since it was left at 10
  EXPECT_EQ(allocated(a, "Eden"), 100 + 250 + 50);
}

TEST(PoolAllocation, OldSpaceCountsPromotionDuringCollectionsAndNeverShrinks) {
  PoolAllocation a;
  a.on_collection({{"Old", 1000, 1200}});  // grew by 1000 before and 200 during
  a.on_collection({{"Old", 1200, 700}});   // a full GC shrank it: nothing
  a.on_collection({{"Old", 900, 950}});    // 200 since 700, 50 during
  EXPECT_EQ(allocated(a, "Old"), 1200 + 0 + 250);
}

TEST(PoolAllocation, PoolsThatNeverGrewHaveNoSeries) {
  PoolAllocation a;
  a.on_collection({{"Survivor", 0, 0}, {"Eden", 8, 0}});
  MetricFamilies out;
  a.collect(out);
  const MetricFamily* f = find_family(out, "jvm_memory_pool_allocated_bytes_total");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->type, MetricType::counter);
  ASSERT_EQ(f->samples.size(), 1u);
  EXPECT_EQ(f->samples[0].labels[0].value, "Eden");
}

}  // namespace
}  // namespace jvmsight
