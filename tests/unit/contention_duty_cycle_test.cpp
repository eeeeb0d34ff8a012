// Duty cycling of the contention events, the scaling of what they saw to the
// JVM's own count, and the ring that carries long waits to the agent thread.
#include "collectors/contention/contention_duty_cycle.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "collectors/contention/contended_wait_ring.h"

namespace jvmsight {
namespace {

using Clock = MonitorContentionCollector::Clock;

void contend(MonitorContentionRecorder& r, int32_t hash, uint64_t wait_ns, int times = 1) {
  for (int i = 0; i < times; ++i) r.record_contended(r.slot_of(hash).index, wait_ns);
}

// Classes by hash, as the tag resolver would find them.
MonitorContentionCollector::TagResolver classes(std::map<int32_t, std::string> names) {
  return [names](const std::vector<int32_t>&) { return names; };
}

uint64_t count_of(const MonitorContentionCollector& c, const std::string& label) {
  auto it = c.by_label().find(label);
  return it == c.by_label().end() ? 0 : it->second.count;
}

TEST(MonitorContentionCollector, ScalingSplitsTheJvmsCountByTheSharesTheEventsSaw) {
  MonitorContentionRecorder r;
  uint64_t jvm = 0;
  MonitorContentionCollector c(r, 5, true, classes({{1, "A"}, {2, "B"}}), [&] { return std::optional(jvm); });
  contend(r, 1, 1'000, 7);  // before duty cycling: counted as the events saw them
  c.begin_scaling();
  contend(r, 1, 1'000, 30);
  contend(r, 2, 3'000, 10);
  jvm = 400;
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
  uint64_t jvm = 0;
  int reads = 0;
  MonitorContentionCollector c(r, 5, true, classes({{1, "A"}}), [&] {
    ++reads;
    return std::optional(jvm);
  });
  c.begin_scaling();
  const int at_start = reads;
  contend(r, 1, 1'000, 10);
  jvm = 80;
  MetricFamilies out;
  c.collect(out);
  EXPECT_EQ(reads, at_start);
  EXPECT_EQ(count_of(c, "A"), 0u) << "the window counts only once scaled to the JVM's count";
  c.flush_scaled();  // the cycle's end
  EXPECT_EQ(reads, at_start + 1);
  EXPECT_EQ(count_of(c, "A"), 80u);
}

TEST(MonitorContentionCollector, ScaledFractionsAddUpOverFlushes) {
  MonitorContentionRecorder r;
  uint64_t jvm = 0;
  MonitorContentionCollector c(r, 5, true, classes({{1, "A"}, {2, "B"}}), [&] { return std::optional(jvm); });
  c.begin_scaling();
  for (int i = 0; i < 10; ++i) {
    contend(r, 1, 1'000, 2);
    contend(r, 2, 1'000, 1);
    jvm = 7;  // 7 split 2:1 is 4.67 and 2.33 each time
    c.flush_scaled();
  }
  EXPECT_NEAR(static_cast<double>(count_of(c, "A")), 46.7, 1.0);
  EXPECT_NEAR(static_cast<double>(count_of(c, "B")), 23.3, 1.0);
  EXPECT_NEAR(static_cast<double>(count_of(c, "A") + count_of(c, "B")), 70.0, 2.0);
}

TEST(MonitorContentionCollector, JvmCountOfAnEmptyWindowWaitsForOneThatSawEntries) {
  MonitorContentionRecorder r;
  uint64_t jvm = 0;
  MonitorContentionCollector c(r, 5, true, classes({{1, "A"}}), [&] { return std::optional(jvm); });
  c.begin_scaling();
  jvm = 50;
  c.flush_scaled();  // the events were off the whole time
  EXPECT_EQ(count_of(c, "A"), 0u);
  contend(r, 1, 1'000, 5);
  jvm = 50;
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 100u);
}

TEST(MonitorContentionCollector, AJvmCountUnderWhatTheEventsSawFallsBackToTheirShareOfTime) {
  MonitorContentionRecorder r;
  uint64_t jvm = 0;
  MonitorContentionCollector c(r, 5, true, classes({{1, "A"}}), [&] { return std::optional(jvm); });
  c.begin_scaling();
  r.set_duty_shift(2);
  contend(r, 1, 1'000, 20);
  jvm = 5;  // the threads ended, or were virtual: the JVM's count misses them
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 80u);
}

TEST(MonitorContentionCollector, WithoutTheJvmsCountAWindowCountsTwoToTheShiftTimes) {
  MonitorContentionRecorder r;
  MonitorContentionCollector c(r, 5, true, classes({{1, "A"}}), [] { return std::optional<uint64_t>(); });
  c.begin_scaling();
  r.set_duty_shift(3);
  contend(r, 1, 1'000, 5);
  c.flush_scaled();
  EXPECT_EQ(count_of(c, "A"), 40u);
}

struct Cycle {
  MonitorContentionRecorder recorder;
  uint64_t jvm = 0;
  MonitorContentionCollector collector{recorder, 5, true, classes({{1, "A"}}), [this] { return std::optional(jvm); }};
  std::vector<bool> switched;
  ContentionDutyCycle duty{recorder, collector, ContentionSampler(1000), [this](bool on) {
                             switched.push_back(on);
                             return true;
                           }};
  Clock::time_point now = Clock::now();
  void tick() {
    now += ContentionDutyCycle::slice;
    duty.tick(now);
  }
};

TEST(ContentionDutyCycle, AboveTheBoundEventsAreOnOneSliceInTwoToTheK) {
  Cycle c;
  c.tick();  // the first tick starts the clock
  contend(c.recorder, 1, 1'000, 10'000);
  for (uint32_t i = 0; i < ContentionDutyCycle::rate_slices; ++i) c.tick();
  // 10,000 a second over a bound of 1,000: on 1/16 of the time sees 625 a second.
  EXPECT_EQ(c.recorder.duty_shift(), 4u);
  EXPECT_TRUE(c.collector.scaling());
  EXPECT_TRUE(c.switched.empty()) << "the first slice of the cycle keeps the events on";
  c.tick();
  EXPECT_EQ(c.switched, std::vector<bool>{false});
  EXPECT_TRUE(c.duty.blind_since_last_asked());
  for (int i = 0; i < 14; ++i) c.tick();
  EXPECT_EQ(c.switched.size(), 1u) << "off for the other 15 slices";
  contend(c.recorder, 1, 1'000, 600);  // what the events saw in the on slice
  c.jvm = 16 * 2'500;                  // what the JVM counted over the 4 s cycle
  c.tick();
  EXPECT_EQ(c.switched, (std::vector<bool>{false, true}));
  EXPECT_EQ(c.recorder.duty_shift(), 4u) << "10,000 a second still";
  EXPECT_EQ(count_of(c.collector, "A"), 10'000u + 40'000u);
}

TEST(ContentionDutyCycle, QuietAgainItStepsDownAndStopsScaling) {
  Cycle c;
  c.tick();
  contend(c.recorder, 1, 1'000, 2'500);
  for (uint32_t i = 0; i < ContentionDutyCycle::rate_slices; ++i) c.tick();
  ASSERT_EQ(c.recorder.duty_shift(), 2u);  // 2,500 a second
  for (int i = 0; i < 4; ++i) c.tick();    // one cycle of 4 slices, nothing contended
  EXPECT_EQ(c.recorder.duty_shift(), 1u);
  c.tick();
  c.tick();
  EXPECT_EQ(c.recorder.duty_shift(), 0u);
  EXPECT_FALSE(c.collector.scaling());
  EXPECT_TRUE(c.duty.events_on());
  EXPECT_FALSE(c.duty.blind_since_last_asked() && c.duty.blind_since_last_asked()) << "seen again once back on";
}

TEST(ContentionDutyCycle, StartsEachOnPhaseSoOlderStampsAreRefused) {
  Cycle c;
  c.tick();
  contend(c.recorder, 1, 1'000, 5'000);
  for (uint32_t i = 0; i < ContentionDutyCycle::rate_slices; ++i) c.tick();
  uint64_t before = monotonic_ns();
  uint64_t old_stamp = ThreadStamp::enter(before, 1);
  while (c.switched.size() < 2) c.tick();
  EXPECT_FALSE(c.recorder.stamp_usable(old_stamp, monotonic_ns()));
}

TEST(ContendedWaitRing, KeepsOrderDropsWhenFullAndCountsTheDrops) {
  ContendedWaitRing ring;
  for (size_t i = 0; i < ContendedWaitRing::capacity; ++i) EXPECT_TRUE(ring.push({i, i + 1, 7, 9}));
  EXPECT_FALSE(ring.push({0, 0, 0, 0}));
  EXPECT_EQ(ring.dropped(), 1u);
  ContendedWait w;
  for (size_t i = 0; i < ContendedWaitRing::capacity; ++i) {
    ASSERT_TRUE(ring.pop(w));
    EXPECT_EQ(w.start_ns, i);
  }
  EXPECT_FALSE(ring.pop(w));
  EXPECT_TRUE(ring.push({5, 6, 7, 8})) << "room again after the drain";
}

TEST(ContendedWaitRing, ProducersOnManyThreadsLoseNothingTheConsumerHasRoomFor) {
  ContendedWaitRing ring;
  constexpr int producers = 4, each = 20'000;
  std::atomic<bool> done{false};
  uint64_t popped = 0, sum = 0;
  std::thread consumer([&] {
    ContendedWait w;
    for (;;) {
      bool last = done.load();
      while (ring.pop(w)) {
        ++popped;
        sum += w.end_ns - w.start_ns;
        EXPECT_EQ(w.lock_hash, static_cast<int32_t>(w.start_ns % 1000));
      }
      if (last) break;
    }
  });
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      for (uint64_t i = 0; i < each; ++i) {
        uint64_t start = static_cast<uint64_t>(p) * 1'000'000 + i;
        while (!ring.push({start, start + 3, static_cast<int32_t>(start % 1000), p})) std::this_thread::yield();
      }
    });
  for (auto& t : threads) t.join();
  done = true;
  consumer.join();
  EXPECT_EQ(popped, uint64_t{producers} * each);
  EXPECT_EQ(sum, 3u * producers * each) << "no record torn";
}

}  // namespace
}  // namespace jvmsight
