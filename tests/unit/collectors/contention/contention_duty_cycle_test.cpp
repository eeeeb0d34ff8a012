// Duty cycling of the contention events: above the contention_sampling
// bound the events are on one slice in 2^k, and what they saw is scaled to
// the JVM's own count at each cycle's end.
#include "collectors/contention/contention_duty_cycle.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/clock.h"
#include "tests/unit/collectors/contention/contention_fakes.h"

namespace jvmsight {
namespace {

using test::contend;
using test::count_of;
using Clock = MonitorContentionCollector::Clock;

// with_churn: as on JDK 21, a start rate of virtual threads (started, fed
// by tick) sets a lowest k too. with_contended: false as with
// contention=off, where only the churn cycles (the pinning breakpoints).
struct Cycle {
  explicit Cycle(bool with_churn = false, bool with_contended = true)
      : duty{recorder, with_contended ? &collector : nullptr, ContentionSampler(with_contended ? 1000 : 0), events,
             with_churn ? &churn : nullptr} {}
  MonitorContentionRecorder recorder;
  test::FixedClasses classes{{{1, "A"}}};
  test::ScriptedEntryCount jvm;
  test::RecordedSwitch events;
  MonitorContentionCollector collector{recorder, 5, true, &classes, &jvm};
  uint64_t started = 0;
  VirtualThreadChurn churn{1000, [this] { return std::optional<uint64_t>(started); }};
  ContentionDutyCycle duty;
  Clock::time_point now = Clock::now();
  // One slice, in which starts_per_second virtual threads a second started.
  void tick(uint64_t starts_per_second = 0) {
    started += starts_per_second / 4;
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
  EXPECT_TRUE(c.events.switched.empty()) << "the first slice of the cycle keeps the events on";
  c.tick();
  EXPECT_EQ(c.events.switched, std::vector<bool>{false});
  EXPECT_TRUE(c.duty.blind_since_last_asked());
  for (int i = 0; i < 14; ++i) c.tick();
  EXPECT_EQ(c.events.switched.size(), 1u) << "off for the other 15 slices";
  contend(c.recorder, 1, 1'000, 600);  // what the events saw in the on slice
  c.jvm.value = 16 * 2'500;            // what the JVM counted over the 4 s cycle
  c.tick();
  EXPECT_EQ(c.events.switched, (std::vector<bool>{false, true}));
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
  while (c.events.switched.size() < 2) c.tick();
  EXPECT_FALSE(c.recorder.stamp_usable(old_stamp, monotonic_ns()));
}

// JDK 21 with virtual threads started fast: the start rate alone sets k,
// the wait and Breakpoint events go on and off with the contended ones,
// waits and pinnings of an on phase stand for 2^k, and once the starts slow
// down everything is back on for good.
TEST(ContentionDutyCycle, VirtualThreadChurnCyclesEveryThreadFilterableEvent) {
  Cycle c(true);
  c.tick(0);
  for (uint32_t i = 0; i < ContentionDutyCycle::rate_slices; ++i) c.tick(200'000);
  // No contention, 200,000 starts a second over a bound of 1,000: the
  // highest k, 5 (on 1/32 of the time).
  EXPECT_EQ(c.recorder.duty_shift(), ContentionSampler::max_shift);
  EXPECT_TRUE(c.duty.others_cycled());
  EXPECT_EQ(c.recorder.others_phase().shift, ContentionSampler::max_shift);
  c.tick(200'000);
  EXPECT_EQ(c.events.switched, std::vector<bool>{false});
  EXPECT_EQ(c.events.others, std::vector<bool>{false});
  while (c.events.switched.size() < 2) c.tick(200'000);
  EXPECT_EQ(c.events.others, (std::vector<bool>{false, true})) << "back on with the contended ones";
  // A wait or pinning begun before this on phase is refused; one within it counts 32 times.
  const EventPhase phase = c.recorder.others_phase();
  const uint64_t now = monotonic_ns();
  EXPECT_TRUE(phase.usable(0, now));
  EXPECT_FALSE(phase.usable(now - phase.start_ns + 1, now));
  EXPECT_EQ(phase.weight(), 32u);
  c.recorder.record_wait(1'000, phase.weight());
  EXPECT_EQ(c.recorder.waits().count, 32u);
  EXPECT_EQ(c.recorder.waits().sum_ns, 32'000u);

  // The starts stop: k steps down one cycle at a time, the others stay on.
  for (int i = 0; i < 200 && c.recorder.duty_shift() > 0; ++i) c.tick(0);
  EXPECT_EQ(c.recorder.duty_shift(), 0u);
  EXPECT_FALSE(c.duty.others_cycled());
  EXPECT_TRUE(c.duty.events_on());
  ASSERT_FALSE(c.events.others.empty());
  EXPECT_TRUE(c.events.others.back());
  const EventPhase after = c.recorder.others_phase();
  EXPECT_EQ(after.shift, 0u);
  EXPECT_EQ(after.weight(), 1u);
  // Still refused: a start from before the events were last turned on.
  const uint64_t later = monotonic_ns();
  EXPECT_FALSE(after.usable(later - after.start_ns + 1, later));
  EXPECT_TRUE(after.usable(0, later));
}

// Below the bound nothing is cycled for churn, and contention alone never
// touches the other events.
TEST(ContentionDutyCycle, ContentionAloneLeavesTheOtherEventsOn) {
  Cycle c(true);
  c.tick(0);
  contend(c.recorder, 1, 1'000, 10'000);
  for (uint32_t i = 0; i < ContentionDutyCycle::rate_slices; ++i) c.tick(500);
  EXPECT_EQ(c.recorder.duty_shift(), 4u);
  EXPECT_FALSE(c.duty.others_cycled());
  for (int i = 0; i < 40; ++i) c.tick(500);
  EXPECT_FALSE(c.events.switched.empty());
  EXPECT_TRUE(c.events.others.empty());
  EXPECT_EQ(c.recorder.others_phase().shift, 0u);
  EXPECT_EQ(c.recorder.others_phase().start_ns, 0u) << "never turned off: every start usable";
}

// contention=off on JDK 21: the pinning breakpoints alone are cycled for
// the churn, and nothing of the contention collector is touched (no JVM
// count read, no scaling).
TEST(ContentionDutyCycle, WithoutContendedEventsChurnCyclesTheOthersAlone) {
  Cycle c(true, false);
  c.tick(0);
  for (uint32_t i = 0; i < ContentionDutyCycle::rate_slices; ++i) c.tick(200'000);
  EXPECT_EQ(c.recorder.duty_shift(), ContentionSampler::max_shift);
  EXPECT_TRUE(c.duty.others_cycled());
  while (c.events.others.size() < 2) c.tick(200'000);
  EXPECT_EQ(c.events.others, (std::vector<bool>{false, true}));
  EXPECT_EQ(c.recorder.others_phase().weight(), 32u);
  EXPECT_FALSE(c.collector.scaling());
  EXPECT_EQ(c.jvm.reads, 0) << "the JVM's count of contended entries is not read";
  EXPECT_FALSE(c.duty.blind_since_last_asked()) << "no contended events, nothing to miss";
  for (int i = 0; i < 200 && c.recorder.duty_shift() > 0; ++i) c.tick(0);
  EXPECT_EQ(c.recorder.duty_shift(), 0u);
  ASSERT_FALSE(c.events.others.empty());
  EXPECT_TRUE(c.events.others.back()) << "the breakpoints end on";
}

}  // namespace
}  // namespace jvmsight
