// The mutex profile's hot half: stack walks thinned to a rate by the agent
// thread's pacing, and kept waits scaled back by the shift they were walked
// at, so the totals stay unbiased estimates.
#include "collectors/contention/monitor_stack_recorder.h"

#include <gtest/gtest.h>

#include <vector>

namespace jvmsight {
namespace {

using Clock = MonitorStackRecorder::Clock;
using std::chrono::milliseconds;

// The Enter callback's draw, n times, at the recorder's current shift.
uint64_t enters(MonitorStackRecorder& r, uint64_t n, uint64_t& now) {
  uint64_t walked = 0;
  for (uint64_t i = 0; i < n; ++i) {
    now += 1'013;
    walked += r.draw_walk(wait_random(now, 0x7f00), r.walk_shift());
  }
  return walked;
}

// The agent thread's slices: entries at `per_second` while the events are
// on, then its look; the events stay on for the next slice unless `next_on`
// says otherwise.
struct Slices {
  explicit Slices(uint64_t rate_ns = 100'000) : r(rate_ns, t) {}
  Clock::time_point t{milliseconds(5)};
  MonitorStackRecorder r;
  uint64_t now = 1;
  uint32_t duty_shift = 0;
  uint64_t on(uint64_t per_second, bool next_on = true) {
    uint64_t walked = enters(r, per_second / 4, now);
    t += milliseconds(250);
    r.pace(next_on, duty_shift, t);
    return walked;
  }
  void off(int slices) {
    for (int i = 0; i < slices; ++i) {
      t += milliseconds(250);
      r.pace(i + 1 == slices, duty_shift, t);
    }
  }
};

TEST(MonitorStackRecorder, WalksEveryEntryUnderTheRate) {
  Slices s;
  for (int i = 0; i < 12; ++i) EXPECT_EQ(s.on(400), 100u);
  EXPECT_EQ(s.r.walk_shift(), 0u);
}

TEST(MonitorStackRecorder, ThinsWalksToTheRateAndBackWhenEntriesFall) {
  Slices s;
  s.on(5'000);  // the stress bench's rate of events seen
  EXPECT_EQ(s.r.walk_shift(), 4u) << "5,000 a second: one in 16 keeps it under 500";
  uint64_t walked = 0;
  for (int i = 0; i < 4; ++i) walked += s.on(5'000);
  EXPECT_NEAR(double(walked), 5'000 / 16.0, 5'000 / 16.0 * 0.3);
  EXPECT_EQ(s.r.walk_shift(), 4u);
  for (int i = 0; i < 6; ++i) s.on(100);
  EXPECT_EQ(s.r.walk_shift(), 0u) << "lowered a step a slice";
}

// Duty cycled, the events come in bursts (one slice on in 32): the shift
// follows the burst's rate over the whole cycle, what the walks cost a
// second, and the time the events are off lowers nothing.
TEST(MonitorStackRecorder, PacesByTheBurstOverTheDutyCycle) {
  Slices s;
  s.duty_shift = 5;
  s.on(130'000, false);
  const uint32_t burst = s.r.walk_shift();
  EXPECT_EQ(burst, 4u) << "130,000 a second on 1/32 of the time: one in 16 keeps it under 500";
  for (int cycle = 0; cycle < 3; ++cycle) {
    s.off(31);
    EXPECT_EQ(s.r.walk_shift(), burst);
    const uint64_t walked = s.on(130'000, false);
    EXPECT_NEAR(double(walked), 130'000 / 4 / 16.0, 130'000 / 4 / 16.0 * 0.3);
    EXPECT_EQ(s.r.walk_shift(), burst);
  }
}

TEST(MonitorStackRecorder, RateZeroWalksEveryEntry) {
  Slices s(0);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s.on(100'000), 25'000u);
  EXPECT_EQ(s.r.walk_shift(), 0u);
}

TEST(MonitorStackRecorder, NeverThinnerThanTheLargestShift) {
  Slices s;
  s.on(40'000'000);  // 610 a second even at 2^14
  EXPECT_EQ(s.r.walk_shift(), MonitorStackRecorder::max_walk_shift);
}

// Waits of two lengths at two stacks, walked at one entry in 8: the kept
// waits, scaled by the walk shift their word carries, estimate the whole.
TEST(MonitorStackRecorder, ThinnedWalksStayUnbiased) {
  constexpr uint32_t shift = 3;
  constexpr int n = 200'000;
  MonitorStackRecorder r(100'000);  // 100 us, the default rate
  jvmtiFrameInfo a{reinterpret_cast<jmethodID>(0x1000), 7}, b{reinterpret_cast<jmethodID>(0x2000), 9};
  const uint32_t ida = r.table().intern(&a, 1), idb = r.table().intern(&b, 1);
  uint64_t now = 99;
  for (int i = 0; i < n; ++i) {
    now += 977;
    const bool at_a = i % 4 != 0;                        // three quarters of the waits at a
    const uint64_t wait_ns = at_a ? 20'000 : 2'000'000;  // short and frequent, long and rare
    const uint64_t word = r.draw_walk(wait_random(now, 1), shift)
                              ? MonitorStackRecorder::walked(at_a ? ida : idb, shift)
                              : MonitorStackRecorder::not_walked;
    const KeptWait kept = sample_wait(wait_ns, r.rate_ns(), wait_random(now + 5'000, 2), 0);
    if (kept.kept) r.keep(word, kept);
  }
  std::vector<double> waits(3), delay(3);
  r.table().for_each([&](uint32_t id, const jvmtiFrameInfo*, uint32_t, uint64_t w, uint64_t d) {
    if (id == ida || id == idb) {
      waits[id == ida ? 1 : 2] = double(w) / StackTable::weight_one;
      delay[id == ida ? 1 : 2] = double(d);
    }
  });
  EXPECT_NEAR(waits[1], n * 0.75, n * 0.75 * 0.1);
  EXPECT_NEAR(waits[2], n * 0.25, n * 0.25 * 0.1);
  EXPECT_NEAR(delay[1], n * 0.75 * 20'000, n * 0.75 * 20'000 * 0.1);
  EXPECT_NEAR(delay[2], n * 0.25 * 2e6, n * 0.25 * 2e6 * 0.1);
  EXPECT_NEAR(double(r.samples()), n * (0.75 * 0.2 + 0.25) / 8, n * 0.4 / 8 * 0.1) << "only walked waits kept";
}

TEST(MonitorStackRecorder, AWaitWithoutAWalkedStackIsNotKept) {
  MonitorStackRecorder r(0);
  r.keep(MonitorStackRecorder::not_walked, sample_wait(1'000, 0, 0, 0));
  EXPECT_EQ(r.samples(), 0u);
}

}  // namespace
}  // namespace jvmsight
