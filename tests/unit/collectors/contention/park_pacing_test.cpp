// The block sampler's schedule: how often it looks while waits change,
// stay or are absent, and how a round's cost, a safepoint's or a stack's
// pushes the next back to keep them within their budgets.
#include "collectors/contention/park_pacing.h"

#include <gtest/gtest.h>

#include <chrono>

namespace jvmsight {
namespace {

TEST(ParkPacing, LooksOftenWhileWaitsChangeAndLessWhileTheyDoNot) {
  ParkPacing p;
  using std::chrono::milliseconds;
  EXPECT_EQ(p.next(milliseconds(0), 0, false, p.min_interval), p.idle_interval);
  // No virtual thread alive: asked less often than an idle JVM's parked threads.
  EXPECT_GT(p.absent_interval, p.idle_interval);
  EXPECT_EQ(p.next(milliseconds(0), 0, false, p.min_interval, false), p.absent_interval);
  EXPECT_EQ(p.next(milliseconds(2), 0, false, p.min_interval, false), milliseconds(400));
  EXPECT_EQ(p.next(milliseconds(0), 5, true, p.max_interval), p.min_interval);
  EXPECT_EQ(p.next(milliseconds(0), 5, false, milliseconds(40)), milliseconds(80));
  EXPECT_EQ(p.next(milliseconds(0), 5, false, p.max_interval), p.max_interval);
  // A round that cost 1 ms of CPU: the next no sooner than keeps it at 0.5% of a core.
  EXPECT_EQ(p.next(milliseconds(1), 5, true, p.min_interval), milliseconds(200));
  // A pileup of thousands read in 10 ms: still 0.5% of a core (2 s) while
  // its waits change, max_interval while they do not; never past longest_interval.
  EXPECT_EQ(p.next(milliseconds(10), 10'000, true, p.min_interval), std::chrono::seconds(2));
  EXPECT_EQ(p.next(milliseconds(10), 10'000, false, p.max_interval), p.max_interval);
  EXPECT_EQ(p.next(milliseconds(40), 10'000, false, p.max_interval), std::chrono::seconds(8));
  EXPECT_EQ(p.next(std::chrono::seconds(1), 10'000, false, p.max_interval), p.longest_interval);
  // A 1 ms safepoint on JDK 8/11: the next stacks after 200 ms.
  EXPECT_EQ(p.after_stop(milliseconds(1)), milliseconds(200));
  // Handshakes of 20 us within 1% of 10 ms: 5; at least one, at most the cap.
  EXPECT_EQ(p.stacks(milliseconds(10), std::chrono::microseconds(20), 64), 5u);
  EXPECT_EQ(p.stacks(milliseconds(1), milliseconds(1), 64), 1u);
  EXPECT_EQ(p.stacks(std::chrono::seconds(10), std::chrono::microseconds(1), 64), 64u);
}

}  // namespace
}  // namespace jvmsight
