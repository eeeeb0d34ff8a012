// The contention collector: lock classes as labels (bounded, never moving),
// unknown classes held back then counted as unresolved, and, while the
// events are duty cycled, what they saw scaled to the JVM's own count.
#include "collectors/contention/monitor_contention_collector.h"

#include <gtest/gtest.h>

#include <vector>

#include "tests/unit/collectors/contention/contention_fakes.h"

namespace jvmsight {
namespace {

using test::contend;
using test::count_of;
using Clock = MonitorContentionCollector::Clock;

TEST(MonitorContentionCollector, FirstKClassesKeepLabelsRestIsOtherAndCountersNeverMove) {
  MonitorContentionRecorder r;
  MonitorContentionCollector c(r, 2, true);
  c.learn_classes({{1, "A"}, {2, "B"}, {3, "C"}});
  contend(r, 1, 300);
  contend(r, 2, 200);
  contend(r, 3, 100);
  auto t0 = Clock::now();
  c.absorb(t0);
  EXPECT_EQ(c.by_label().at("A").count, 1u);  // ranked by wait time: A and B get labels
  EXPECT_EQ(c.by_label().at("B").count, 1u);
  EXPECT_EQ(c.by_label().at("other").count, 1u);
  contend(r, 3, 1'000'000'000);  // C now waits most, but labels are for good
  c.absorb(t0);
  EXPECT_EQ(c.by_label().count("C"), 0u);
  EXPECT_EQ(c.by_label().at("other").count, 2u);
}

TEST(MonitorContentionCollector, UnknownClassWaitsThenCountsAsUnresolved) {
  MonitorContentionRecorder r;
  MonitorContentionCollector c(r, 5, true);
  contend(r, 9, 100);
  auto t0 = Clock::now();
  c.absorb(t0);
  EXPECT_TRUE(c.by_label().empty()) << "held back until the class is known";
  c.absorb(t0 + MonitorContentionCollector::unresolved_after);
  EXPECT_EQ(c.by_label().at("unresolved").count, 1u);
}

TEST(MonitorContentionCollector, ResolverNamesTaggedLocks) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{7, "com.example.Cache"}});
  MonitorContentionCollector c(r, 5, true, &classes);
  contend(r, 7, 100);
  c.absorb();
  EXPECT_EQ(classes.asked, std::vector<int32_t>{7});
  EXPECT_EQ(c.by_label().at("com.example.Cache").count, 1u);
  MetricFamilies out;
  c.collect(out);
  const MetricFamily* waits = find_family(out, "jvmsight_monitor_contended_wait_seconds");
  ASSERT_NE(waits, nullptr);
  ASSERT_EQ(waits->samples.size(), 1u);
  EXPECT_EQ(waits->samples[0].histogram.count, 1u);
  EXPECT_EQ(waits->samples[0].histogram.bucket_counts.size(), wait_bucket_count + 1);
}

TEST(MonitorContentionCollector, ScalingSplitsTheJvmsCountByTheSharesTheEventsSaw) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{1, "A"}, {2, "B"}});
  test::ScriptedEntryCount jvm;
  MonitorContentionCollector c(r, 5, true, &classes, &jvm);
  contend(r, 1, 1'000, 7);  // before duty cycling: counted as the events saw them
  c.begin_scaling();
  contend(r, 1, 1'000, 30);
  contend(r, 2, 3'000, 10);
  jvm.value = 400;
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 7u + 300u);
  EXPECT_EQ(count_of(c, "B"), 100u);
  EXPECT_EQ(c.by_label().at("B").sum_ns, 100u * 3'000) << "the sampled mean wait, times the scaled count";
  EXPECT_EQ(c.take_counted(), 7u + 400u);
}

// Reading the JVM's count is getThreadInfo of every thread (7-10 ms at
// 10,000): a scrape while duty cycling serves the last flush instead, and
// what the events saw since waits for the cycle's end.
TEST(MonitorContentionCollector, ScrapeWhileScalingNeverReadsTheJvmsCount) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{1, "A"}});
  test::ScriptedEntryCount jvm;
  MonitorContentionCollector c(r, 5, true, &classes, &jvm);
  c.begin_scaling();
  const int at_start = jvm.reads;
  contend(r, 1, 1'000, 10);
  jvm.value = 80;
  MetricFamilies out;
  c.collect(out);
  EXPECT_EQ(jvm.reads, at_start);
  EXPECT_EQ(count_of(c, "A"), 0u) << "the window counts only once scaled to the JVM's count";
  c.flush_scaled();  // the cycle's end
  EXPECT_EQ(jvm.reads, at_start + 1);
  EXPECT_EQ(count_of(c, "A"), 80u);
}

TEST(MonitorContentionCollector, ScaledFractionsAddUpOverFlushes) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{1, "A"}, {2, "B"}});
  test::ScriptedEntryCount jvm;
  MonitorContentionCollector c(r, 5, true, &classes, &jvm);
  c.begin_scaling();
  for (int i = 0; i < 10; ++i) {
    contend(r, 1, 1'000, 2);
    contend(r, 2, 1'000, 1);
    jvm.value = 7;  // 7 split 2:1 is 4.67 and 2.33 each time
    c.flush_scaled();
  }
  EXPECT_NEAR(static_cast<double>(count_of(c, "A")), 46.7, 1.0);
  EXPECT_NEAR(static_cast<double>(count_of(c, "B")), 23.3, 1.0);
  EXPECT_NEAR(static_cast<double>(count_of(c, "A") + count_of(c, "B")), 70.0, 2.0);
}

TEST(MonitorContentionCollector, JvmCountOfAnEmptyWindowWaitsForOneThatSawEntries) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{1, "A"}});
  test::ScriptedEntryCount jvm;
  MonitorContentionCollector c(r, 5, true, &classes, &jvm);
  c.begin_scaling();
  jvm.value = 50;
  c.flush_scaled();  // the events were off the whole time
  EXPECT_EQ(count_of(c, "A"), 0u);
  contend(r, 1, 1'000, 5);
  jvm.value = 50;
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 100u);
}

TEST(MonitorContentionCollector, AJvmCountUnderWhatTheEventsSawFallsBackToTheirShareOfTime) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{1, "A"}});
  test::ScriptedEntryCount jvm;
  MonitorContentionCollector c(r, 5, true, &classes, &jvm);
  c.begin_scaling();
  r.set_duty_shift(2);
  contend(r, 1, 1'000, 20);
  jvm.value = 5;  // the threads ended, or were virtual: the JVM's count misses them
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 80u);
}

TEST(MonitorContentionCollector, WithoutTheJvmsCountAWindowCountsTwoToTheShiftTimes) {
  MonitorContentionRecorder r;
  test::FixedClasses classes({{1, "A"}});
  test::ScriptedEntryCount jvm;
  jvm.value = std::nullopt;
  MonitorContentionCollector c(r, 5, true, &classes, &jvm);
  c.begin_scaling();
  r.set_duty_shift(3);
  contend(r, 1, 1'000, 5);
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 40u);
}

}  // namespace
}  // namespace jvmsight
