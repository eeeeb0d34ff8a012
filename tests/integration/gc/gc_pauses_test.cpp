// GC pauses measured by the agent (JVM TI) against what the same JVM's
// GarbageCollectorMXBeans say, for every collector each JDK offers.
#include "tests/integration/gc/gc_pauses.h"

#include <gtest/gtest.h>

#include <thread>

namespace jvmsight::test {
namespace {

INSTANTIATE_TEST_SUITE_P(JdksAndCollectors, GcPauses,
                         ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                                            ::testing::Values("Serial", "Parallel", "G1", "ConcMarkSweep", "Z",
                                                              "Shenandoah")),
                         param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GcPauses);

TEST_P(GcPauses, CountsAndTimesMatchGarbageCollectorMXBeans) {
  const auto& [jdk, gc] = GetParam();
  // Default gc_notifications=auto: off where they would lengthen pauses.
  bool concurrent = gc == "Z" || gc == "Shenandoah";
  auto jvm = start("gc_cause=on", !concurrent);
  if (!jvm) GTEST_SKIP() << jdk.name << " does not offer -XX:+Use" << gc << "GC";
  ASSERT_GT(jvm->port, 0);
  EXPECT_EQ(jvm->scrape().value("jvmsight_gc_notifications_enabled"), concurrent ? 0.0 : 1.0);
  check_counts_and_times(*jvm, !concurrent);
}

}  // namespace
}  // namespace jvmsight::test
