// The mutex profile's hot half: stack walks thinned to a rate by the agent
// thread's pacing (each lock's first entries of a window walked whatever
// the rate), kept waits scaled back by the shift they were walked at, and
// what duty-cycled events saw scaled to the time they were off, so the
// totals stay unbiased estimates.
#include "collectors/contention/monitor_stack_recorder.h"

#include <gtest/gtest.h>

#include <vector>

namespace jvmsight {
namespace {

using Clock = MonitorStackRecorder::Clock;
using std::chrono::milliseconds;

constexpr uint32_t busy_lock = 1, rare_lock = 2;

// The Enter callback's draw, n times, at the recorder's current shift: the
// walks drawn (a lock's first entries of a window, walked at shift 0
// whatever the current one, are bounded apart).
uint64_t enters(MonitorStackRecorder& r, uint64_t n, uint64_t& now) {
  uint64_t walked = 0;
  for (uint64_t i = 0; i < n; ++i) {
    now += 1'013;
    const uint32_t shift = r.walk_shift();
    walked += r.walk_at(shift, busy_lock, wait_random(now, 0x7f00)) == int32_t(shift);
  }
  return walked;
}

// The profile's totals for one stack, as a snapshot at `at` takes them.
struct Totals {
  double waits = 0, delay_ns = 0;
};
Totals totals(const MonitorStackRecorder& r, uint32_t id, Clock::time_point at) {
  Totals t;
  r.for_each_estimate(
      [&](uint32_t stack, const jvmtiFrameInfo*, uint32_t, uint64_t w, uint64_t d) {
        if (stack != id) return;
        t.waits = double(w) / StackTable::weight_one;
        t.delay_ns = double(d);
      },
      at);
  return t;
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
    const int32_t walked = r.walk_at(shift, at_a ? busy_lock : rare_lock, wait_random(now, 1));
    const uint64_t word = walked >= 0 ? MonitorStackRecorder::walked(at_a ? ida : idb, uint32_t(walked))
                                      : MonitorStackRecorder::not_walked;
    const KeptWait kept = sample_wait(wait_ns, r.rate_ns(), wait_random(now + 5'000, 2));
    if (kept.kept) r.keep(word, kept);
  }
  std::vector<double> waits(3), delay(3);
  r.table().for_each([&](uint32_t id, const jvmtiFrameInfo*, uint32_t, uint64_t w, uint64_t d) {
    if (id == ida || id == idb) {
      waits[id == ida ? 1 : 2] = double(w) / StackTable::weight_one;
      delay[id == ida ? 1 : 2] = double(d);
    }
  });  // all pending, never folded: pending_factor 1
  EXPECT_NEAR(waits[1], n * 0.75, n * 0.75 * 0.1);
  EXPECT_NEAR(waits[2], n * 0.25, n * 0.25 * 0.1);
  EXPECT_NEAR(delay[1], n * 0.75 * 20'000, n * 0.75 * 20'000 * 0.1);
  EXPECT_NEAR(delay[2], n * 0.25 * 2e6, n * 0.25 * 2e6 * 0.1);
  EXPECT_NEAR(double(r.samples()), n * (0.75 * 0.2 + 0.25) / 8, n * 0.4 / 8 * 0.1) << "only walked waits kept";
}

TEST(MonitorStackRecorder, AWaitWithoutAWalkedStackIsNotKept) {
  MonitorStackRecorder r(0);
  r.keep(MonitorStackRecorder::not_walked, sample_wait(1'000, 0, 0));
  EXPECT_EQ(r.samples(), 0u);
}

// However thin the walks, a lock's first entries of each window are walked
// and stand for themselves alone; beyond them, the draw.
TEST(MonitorStackRecorder, WalksEachLocksFirstEntriesOfAWindow) {
  Slices s;
  s.on(40'000'000);
  const uint32_t shift = s.r.walk_shift();
  ASSERT_EQ(shift, MonitorStackRecorder::max_walk_shift);
  for (int window = 0; window < 3; ++window) {
    for (uint32_t i = 0; i < MonitorStackRecorder::first_walks; ++i)
      EXPECT_EQ(s.r.walk_at(shift, rare_lock, 1), 0) << "entry " << i << " of window " << window;
    EXPECT_EQ(s.r.walk_at(shift, rare_lock, 1), -1) << "past the first entries: drawn (and missed)";
    EXPECT_EQ(s.r.walk_at(shift, rare_lock, 0), int32_t(shift)) << "drawn and hit: scaled by the shift";
    s.on(40'000'000);  // the window closes
  }
}

TEST(MonitorStackRecorder, BoundsTheFirstWalksOfAWindow) {
  Slices s;
  s.on(40'000'000);
  const uint32_t shift = s.r.walk_shift();
  uint32_t walked = 0;
  for (uint32_t lock = 0; lock < MonitorStackRecorder::lock_slots; ++lock)
    walked += s.r.walk_at(shift, lock, 1) == 0;  // a draw that misses: only first walks count
  EXPECT_EQ(walked, MonitorStackRecorder::first_walks_per_window);
}

// A lock entered a dozen times a window beside one entered 20,000 times:
// walks thinned to 1 in 2^8 would give it two walks in its whole life of
// 40 windows, and its share of the profile would swing from nothing to
// several times its due. Its first entries keep it near the truth.
TEST(MonitorStackRecorder, ARareLockKeepsItsShareBesideABusyOne) {
  Slices s;
  jvmtiFrameInfo a{reinterpret_cast<jmethodID>(0x1000), 7}, b{reinterpret_cast<jmethodID>(0x2000), 9};
  const uint32_t busy = s.r.table().intern(&a, 1), rare = s.r.table().intern(&b, 1);
  constexpr int windows = 40, busy_entries = 20'000, rare_entries = 12;
  auto wait = [&](uint32_t lock, uint32_t id, uint64_t wait_ns) {
    s.now += 1'013;
    const int32_t walked = s.r.walk_at(s.r.walk_shift(), lock, wait_random(s.now, 3));
    const KeptWait kept = sample_wait(wait_ns, s.r.rate_ns(), wait_random(s.now + 7, 4));
    if (walked >= 0 && kept.kept) s.r.keep(MonitorStackRecorder::walked(id, uint32_t(walked)), kept);
  };
  for (int w = 0; w < windows; ++w) {
    for (int i = 0; i < busy_entries; ++i) {
      wait(busy_lock, busy, 20'000);
      if (i % (busy_entries / rare_entries) == 0 && i / (busy_entries / rare_entries) < rare_entries)
        wait(rare_lock, rare, 2'000'000);
    }
    s.t += milliseconds(250);
    s.r.pace(true, 0, s.t);
  }
  EXPECT_GE(s.r.walk_shift(), 7u) << "80,000 entries a second: thin walks";
  const Totals r = totals(s.r, rare, s.t), bz = totals(s.r, busy, s.t);
  EXPECT_NEAR(r.waits, windows * rare_entries, windows * rare_entries * 0.25);
  const double truth = rare_entries * 2e6 / (rare_entries * 2e6 + busy_entries * 20'000.0);
  EXPECT_NEAR(r.delay_ns / (r.delay_ns + bz.delay_ns), truth, 0.1);
}

// Duty cycled, waits are seen while the events are on (a slice that
// slipped to 300 ms here) and stand for the whole time to the next slice
// the events are on at, as measured; a profile taken in between counts
// only the time so far.
TEST(MonitorStackRecorder, DutyCycledWaitsStandForTheTimeTheyCover) {
  Slices s(0);
  jvmtiFrameInfo a{reinterpret_cast<jmethodID>(0x1000), 7};
  const uint32_t id = s.r.table().intern(&a, 1);
  const KeptWait one_ms = sample_wait(1'000'000, 0, 0);
  // One wait a millisecond, all the time: 300 seen in each on-phase.
  auto on_phase = [&] {
    for (int i = 0; i < 300; ++i) s.r.keep(MonitorStackRecorder::walked(id, 0), one_ms);
    s.t += milliseconds(300);
    s.r.pace(false, 4, s.t);
  };
  s.r.pace(true, 4, s.t);  // the cycle starts
  const Clock::time_point start = s.t;
  on_phase();
  EXPECT_NEAR(totals(s.r, id, s.t).waits, 300, 1) << "the on-phase alone";
  s.t += milliseconds(750);
  EXPECT_NEAR(totals(s.r, id, s.t).waits, 1'050, 2) << "three slices into the off time";
  for (int cycle = 0; cycle < 3; ++cycle) {
    for (int i = 0; i < 15; ++i) {
      if (cycle > 0 || i >= 3) s.t += milliseconds(250);
      s.r.pace(i == 14, 4, s.t);
    }
    if (cycle < 2) on_phase();
  }
  const double ms = std::chrono::duration<double, std::milli>(s.t - start).count();
  const Totals t = totals(s.r, id, s.t);
  EXPECT_NEAR(t.waits, ms, ms * 0.01) << "not 16 times each on-phase";
  EXPECT_NEAR(t.delay_ns, ms * 1e6, ms * 1e6 * 0.01);
}

TEST(MonitorStackRecorder, AlwaysOnWaitsStandForThemselves) {
  Slices s(0);
  jvmtiFrameInfo a{reinterpret_cast<jmethodID>(0x1000), 7};
  const uint32_t id = s.r.table().intern(&a, 1);
  for (int slice = 0; slice < 4; ++slice) {
    for (int i = 0; i < 100; ++i) s.r.keep(MonitorStackRecorder::walked(id, 0), sample_wait(5'000, 0, 0));
    s.t += milliseconds(slice == 2 ? 400 : 250);
    s.r.pace(true, 0, s.t);
  }
  EXPECT_EQ(totals(s.r, id, s.t + milliseconds(100)).waits, 400);
  EXPECT_EQ(totals(s.r, id, s.t).delay_ns, 2e6);
}

}  // namespace
}  // namespace jvmsight
