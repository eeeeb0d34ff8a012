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

struct Cycle {
  MonitorContentionRecorder recorder;
  test::FixedClasses classes{{{1, "A"}}};
  test::ScriptedEntryCount jvm;
  test::RecordedSwitch events;
  MonitorContentionCollector collector{recorder, 5, true, &classes, &jvm};
  ContentionDutyCycle duty{recorder, collector, ContentionSampler(1000), events};
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

}  // namespace
}  // namespace jvmsight
