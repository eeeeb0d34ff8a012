#include <gtest/gtest.h>

#include "collectors/contention/contention_sampler.h"
#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/contention/monitor_contention_recorder.h"

namespace jvmsight {
namespace {

using Clock = MonitorContentionCollector::Clock;

// One contended entry as the two callbacks record it; true when it claimed the lock's slot.
bool contend(MonitorContentionRecorder& r, int32_t hash, uint64_t wait_ns) {
  auto slot = r.slot_of(hash);
  r.record_contended(slot.index, wait_ns);
  return slot.claimed;
}

TEST(MonitorContentionRecorder, BucketsByWaitTimeAndClaimsEachLockOnce) {
  MonitorContentionRecorder r;
  EXPECT_TRUE(contend(r, 42, 5'000));            // 5 us: first bucket; first contention
  EXPECT_FALSE(contend(r, 42, 2'000'000));       // 2 ms
  EXPECT_FALSE(contend(r, 42, 20'000'000'000));  // 20 s: +Inf
  std::map<int32_t, WaitTotals> seen;
  r.drain([&](int32_t h, const WaitTotals& t) { seen[h].add(t); });
  ASSERT_EQ(seen.size(), 1u);
  const WaitTotals& t = seen[42];
  EXPECT_EQ(t.count, 3u);
  EXPECT_EQ(t.sum_ns, 20'002'005'000u);
  EXPECT_EQ(t.buckets[0], 1u);
  EXPECT_EQ(t.buckets[4], 1u);  // (1 ms, 5 ms]
  EXPECT_EQ(t.buckets[wait_bucket_count], 1u);
  seen.clear();
  r.drain([&](int32_t h, const WaitTotals& t2) { seen[h].add(t2); });
  EXPECT_TRUE(seen.empty()) << "drained counts are taken once";
}

TEST(MonitorContentionRecorder, FullTableOverflowsIntoHashZero) {
  MonitorContentionRecorder r;
  for (int32_t h = 1; h <= static_cast<int32_t>(MonitorContentionRecorder::slot_count) + 100; ++h) contend(r, h, 1000);
  EXPECT_GE(r.overflowed(), 100u);
  uint64_t total = 0, overflow = 0;
  r.drain([&](int32_t h, const WaitTotals& t) {
    total += t.count;
    if (h == 0) overflow += t.count;
  });
  EXPECT_EQ(total, MonitorContentionRecorder::slot_count + 100) << "nothing is lost, only merged";
  EXPECT_EQ(overflow, r.overflowed());
}

TEST(ThreadStamp, EnterKeepsSlotAndTimesAcrossTheWrapOfItsClockBits) {
  constexpr uint64_t wrap = ThreadStamp::enter_mask + 1;  // 2^46 ns
  uint64_t start = wrap - 300;                            // 300 ns before the kept bits wrap
  uint64_t s = ThreadStamp::enter(start, MonitorContentionRecorder::overflow_slot);
  EXPECT_TRUE(ThreadStamp::is_enter(s));
  EXPECT_FALSE(ThreadStamp::is_wait(s));
  EXPECT_EQ(ThreadStamp::slot(s), MonitorContentionRecorder::overflow_slot);
  EXPECT_EQ(ThreadStamp::since(s, start + 1'000), 1'000u);
  EXPECT_EQ(ThreadStamp::slot(ThreadStamp::enter(123'456'789'000, 7)), 7u);
  EXPECT_EQ(ThreadStamp::since(ThreadStamp::enter(123'456'789'000, 7), 123'456'789'000 + 5'000'000), 5'000'000u);
}

TEST(ThreadStamp, WaitIsNeverMistakenForAnEnterOrForNone) {
  uint64_t w = ThreadStamp::wait(0);  // a start at clock value 0 is still a stamp
  EXPECT_TRUE(ThreadStamp::is_wait(w));
  EXPECT_FALSE(ThreadStamp::is_enter(w));
  EXPECT_FALSE(ThreadStamp::is_wait(0));
  EXPECT_FALSE(ThreadStamp::is_enter(0));
  uint64_t start = 987'654'321'000;
  EXPECT_NEAR(static_cast<double>(ThreadStamp::since(ThreadStamp::wait(start), start + 2'000'000'000)), 2e9, 1);
}

TEST(MonitorContentionRecorder, StampFromBeforeThePhaseIsNeverTaken) {
  MonitorContentionRecorder r;
  uint64_t t = 1'000'000'000'000;
  uint64_t stamp = ThreadStamp::enter(t, 1);
  EXPECT_TRUE(r.stamp_usable(stamp, t + 10)) << "events on since the start: every Enter writes one";
  // The events went off with this Entered still to come, and on again: the
  // thread's next Entered may follow an Enter of the off phase.
  r.start_phase(t + 20);
  EXPECT_FALSE(r.stamp_usable(stamp, t + 30));
  EXPECT_TRUE(r.stamp_usable(ThreadStamp::enter(t + 40, 1), t + 50));
  EXPECT_FALSE(r.stamp_usable(ThreadStamp::enter(t + 15, 1), t + 18)) << "clock read before the phase began";
}

TEST(ContentionSampler, TimesEverythingUpToTheBoundThenHalvesUntilUnderIt) {
  ContentionSampler s(10'000);
  EXPECT_EQ(s.next_shift(0, 9'000, 1.0), 0u);
  EXPECT_EQ(s.next_shift(0, 10'000, 1.0), 0u);
  EXPECT_EQ(s.next_shift(0, 10'001, 1.0), 1u);
  EXPECT_EQ(s.next_shift(0, 100'000, 1.0), 4u);  // on 1/16 of the time: 6,250 a second seen
  EXPECT_EQ(s.next_shift(0, 200'000, 2.0), 4u);  // a rate, not a count
  EXPECT_EQ(s.next_shift(0, uint64_t{1} << 40, 1.0), ContentionSampler::max_shift);
  EXPECT_EQ(ContentionSampler(0).next_shift(5, 1'000'000'000, 1.0), 0u) << "0: always on";
}

TEST(ContentionSampler, LowersOneStepAtATimeAndOnlyWellUnderTheBound) {
  ContentionSampler s(10'000);
  EXPECT_EQ(s.next_shift(4, 100'000, 1.0), 4u);
  EXPECT_EQ(s.next_shift(4, 60'000, 1.0), 4u) << "at shift 3 it would time 7,500 a second: too close";
  EXPECT_EQ(s.next_shift(4, 30'000, 1.0), 3u);
  EXPECT_EQ(s.next_shift(4, 0, 1.0), 3u);
  EXPECT_EQ(s.next_shift(1, 0, 1.0), 0u);
}

TEST(MonitorContentionRecorder, LockTagRoundTripsTheHash) {
  EXPECT_EQ(hash_of_lock_tag(lock_tag(-5)), -5);
  EXPECT_NE(lock_tag(0), 0);
}

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
  std::vector<int32_t> asked;
  MonitorContentionCollector c(r, 5, true, [&](const std::vector<int32_t>& hashes) {
    asked = hashes;
    return std::map<int32_t, std::string>{{7, "com.example.Cache"}};
  });
  contend(r, 7, 100);
  c.absorb();
  EXPECT_EQ(asked, std::vector<int32_t>{7});
  EXPECT_EQ(c.by_label().at("com.example.Cache").count, 1u);
  MetricFamilies out;
  c.collect(out);
  const MetricFamily* waits = find_family(out, "jvmsight_monitor_contended_wait_seconds");
  ASSERT_NE(waits, nullptr);
  ASSERT_EQ(waits->samples.size(), 1u);
  EXPECT_EQ(waits->samples[0].histogram.count, 1u);
  EXPECT_EQ(waits->samples[0].histogram.bucket_counts.size(), wait_bucket_count + 1);
}

}  // namespace
}  // namespace jvmsight
