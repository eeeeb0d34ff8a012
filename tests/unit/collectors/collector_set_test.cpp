// CollectorSet: a collector that throws costs its own families only.
#include "collectors/collector_set.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace jvmsight {
namespace {

class Fixed : public Collector {
 public:
  explicit Fixed(const char* family) : family_(family) {}
  void collect(MetricFamilies& out) override { add_sample(add_family(out, family_), 1); }

 private:
  const char* family_;
};

// Adds a family, then fails half-way, as a collector whose JVM call throws.
class Failing : public Collector {
 public:
  void collect(MetricFamilies& out) override {
    ++calls;
    add_family(out, "jvm_threads_peak");
    throw std::runtime_error("JVM call failed");
  }
  int calls = 0;
};

TEST(CollectorSet, AFailingCollectorLeavesOutOnlyItsOwnFamilies) {
  Fixed before("jvm_threads_current"), after("jvm_threads_daemon");
  Failing failing;
  CollectorSet set;
  set.add("before", before);
  set.add("failing", failing);
  set.add("after", after);
  for (int scrape = 0; scrape < 2; ++scrape) {
    MetricFamilies out = set.collect();
    EXPECT_NE(find_family(out, "jvm_threads_current"), nullptr);
    EXPECT_NE(find_family(out, "jvm_threads_daemon"), nullptr);
    EXPECT_EQ(find_family(out, "jvm_threads_peak"), nullptr) << "a half-built family was served";
    const MetricFamily* durations = find_family(out, "jvmsight_collector_duration_seconds");
    ASSERT_NE(durations, nullptr);
    EXPECT_EQ(durations->samples.size(), 3u);
    EXPECT_NE(find_family(out, "jvmsight_scrape_duration_seconds"), nullptr);
  }
  EXPECT_EQ(failing.calls, 2) << "a failed collector is still asked on the next scrape";
}

}  // namespace
}  // namespace jvmsight
