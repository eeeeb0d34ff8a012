#include <gtest/gtest.h>

#include "collectors/locks/contention_sampler.h"
#include "collectors/locks/monitor_contention_collector.h"
#include "collectors/locks/monitor_contention_recorder.h"

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

TEST(ThreadStamp, EnterKeepsItsWeightApartFromSlotAndStart) {
  uint64_t start = 555'000'000'000;
  for (uint32_t shift : {0u, 1u, 9u, ThreadStamp::max_weight_shift}) {
    uint64_t s = ThreadStamp::enter(start, MonitorContentionRecorder::overflow_slot, shift);
    EXPECT_EQ(ThreadStamp::weight_shift(s), shift);
    EXPECT_EQ(ThreadStamp::slot(s), MonitorContentionRecorder::overflow_slot);
    EXPECT_EQ(ThreadStamp::since(s, start + 42), 42u);
  }
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

TEST(MonitorContentionRecorder, SampledEntryCountsForItsWeight) {
  MonitorContentionRecorder r;
  auto slot = r.slot_of(11);
  r.record_contended(slot.index, 2'000, 3);  // one in 8 timed: stands for 8 entries of 2 us
  r.record_contended(slot.index, 7'000'000, 0);
  WaitTotals t;
  r.drain([&](int32_t, const WaitTotals& x) { t.add(x); });
  EXPECT_EQ(t.count, 9u);
  EXPECT_EQ(t.buckets[0], 8u);
  EXPECT_EQ(t.buckets[5], 1u);  // (5 ms, 10 ms]
  EXPECT_EQ(t.sum_ns, 8u * 2'000 + 7'000'000);
}

TEST(MonitorContentionRecorder, SamplesOneInTwoToTheShiftOfACounter) {
  EXPECT_TRUE(MonitorContentionRecorder::samples(12345, 0)) << "shift 0 times every entry";
  for (uint32_t shift : {1u, 4u, 10u}) {
    uint64_t taken = 0, n = uint64_t{1} << 20;
    for (uint64_t c = 0; c < n; c += 37) taken += MonitorContentionRecorder::samples(c, shift);
    double expected = static_cast<double>(n / 37) / static_cast<double>(uint64_t{1} << shift);
    EXPECT_NEAR(static_cast<double>(taken), expected, expected * 0.05) << shift;
  }
}

TEST(MonitorContentionRecorder, StaleExactStampIsNeverTakenForAnUnsampledEntry) {
  MonitorContentionRecorder r;
  uint64_t t = 1'000'000'000'000;
  uint64_t exact = ThreadStamp::enter(t, 1, 0);
  EXPECT_TRUE(r.stamp_usable(exact, t + 10)) << "every Enter writes one: it is this entry's";
  r.set_sample_shift(4, t + 20);
  // The thread's next Enter was not sampled and left the old stamp.
  EXPECT_FALSE(r.stamp_usable(exact, t + 30));
  uint64_t sampled = ThreadStamp::enter(t + 40, 1, 4);
  EXPECT_TRUE(r.stamp_usable(sampled, t + 50)) << "sampled stamps are used once, then cleared";
  r.set_sample_shift(0, t + 60);
  EXPECT_FALSE(r.stamp_usable(exact, t + 70)) << "written before timing became exact again";
  EXPECT_TRUE(r.stamp_usable(ThreadStamp::enter(t + 80, 1, 0), t + 90));
  EXPECT_FALSE(r.stamp_usable(ThreadStamp::enter(t + 50, 1, 0), t + 55)) << "clock read before the switch";
}

TEST(ContentionSampler, TimesEverythingUpToTheBoundThenHalvesUntilUnderIt) {
  ContentionSampler s(10'000);
  EXPECT_EQ(s.next_shift(0, 9'000, 1.0), 0u);
  EXPECT_EQ(s.next_shift(0, 10'000, 1.0), 0u);
  EXPECT_EQ(s.next_shift(0, 10'001, 1.0), 1u);
  EXPECT_EQ(s.next_shift(0, 100'000, 1.0), 4u);  // 6,250 a second timed
  EXPECT_EQ(s.next_shift(0, 200'000, 2.0), 4u);  // a rate, not a count
  EXPECT_EQ(s.next_shift(0, uint64_t{1} << 40, 1.0), ThreadStamp::max_weight_shift);
  EXPECT_EQ(ContentionSampler(0).next_shift(5, 1'000'000'000, 1.0), 0u) << "0: never sample";
}

TEST(ContentionSampler, LowersOneStepAtATimeAndOnlyWellUnderTheBound) {
  ContentionSampler s(10'000);
  EXPECT_EQ(s.next_shift(4, 100'000, 1.0), 4u);
  EXPECT_EQ(s.next_shift(4, 60'000, 1.0), 4u) << "at shift 3 it would time 7,500 a second: too close";
  EXPECT_EQ(s.next_shift(4, 30'000, 1.0), 3u);
  EXPECT_EQ(s.next_shift(4, 0, 1.0), 3u);
  EXPECT_EQ(s.next_shift(1, 0, 1.0), 0u);
}

TEST(MonitorContentionCollector, SamplingFollowsTheRateItDrains) {
  MonitorContentionRecorder r;
  MonitorContentionCollector c(r, 5, true, nullptr, ContentionSampler(100));
  auto t0 = Clock::now();
  c.adjust_sampling(t0);
  for (int i = 0; i < 1000; ++i) contend(r, 3, 100);
  c.adjust_sampling(t0 + std::chrono::seconds(1));
  EXPECT_EQ(r.sample_shift(), 4u) << "1,000 a second over a bound of 100";
  MetricFamilies out;
  c.collect(out);
  const MetricFamily* interval = find_family(out, "jvmsight_monitor_contention_sampling_interval");
  ASSERT_NE(interval, nullptr);
  EXPECT_EQ(interval->samples.at(0).value, 16.0);
  c.adjust_sampling(t0 + std::chrono::seconds(2));
  EXPECT_EQ(r.sample_shift(), 3u) << "quiet again: back one step";
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
