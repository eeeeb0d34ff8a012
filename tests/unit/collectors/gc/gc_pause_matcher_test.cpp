#include "collectors/gc/gc_pause_matcher.h"

#include <gtest/gtest.h>

#include <cmath>

namespace jvmsight {
namespace {

// Timelines in CLOCK_MONOTONIC milliseconds. The GC notification clock runs
// `origin` ms behind and is truncated to whole ms, as in HotSpot.
constexpr double origin = 1661521.97 + 47.3;
constexpr int64_t ns_per_ms = 1'000'000;

RawGcPause pause(double start_ms, double end_ms) {
  RawGcPause p;
  p.start_mono_ns = static_cast<int64_t>(start_ms * ns_per_ms);
  p.end_mono_ns = static_cast<int64_t>(end_ms * ns_per_ms);
  p.start_wall_ns = p.start_mono_ns + 1'700'000'000'000'000'000;
  p.end_wall_ns = p.end_mono_ns + 1'700'000'000'000'000'000;
  return p;
}

// A collection that ran from start_ms to end_ms (monotonic) as its notification reports it.
GcNotification note(const std::string& gc, double start_ms, double end_ms, const std::string& cause = "cause") {
  static int64_t id = 0;
  return {gc,
          "end of " + gc,
          cause,
          ++id,
          static_cast<int64_t>(std::floor(start_ms - origin)),
          static_cast<int64_t>(std::floor(end_ms - origin)),
          {}};
}

int64_t later(double ms) { return static_cast<int64_t>(ms * ns_per_ms); }

TEST(GcPauseMatcher, FindsTheUnknownClockOffsetAndMatchesEveryPause) {
  GcPauseMatcher m;
  double t = origin + 100;
  // Irregular young pauses, each with the collector's timer inside the JVM TI bracket.
  const double gaps[] = {13.2, 7.9, 21.4, 3.3, 15.0, 9.7, 30.1, 4.4};
  const double lengths[] = {1.2, 0.4, 2.9, 0.6, 1.1, 0.3, 5.2, 0.8};
  for (int i = 0; i < 8; ++i) {
    t += gaps[i];
    m.add_pause(pause(t, t + lengths[i]));
    m.add_notification(note(i % 3 ? "Copy" : "MarkSweepCompact", t + 0.05, t + lengths[i] - 0.05));
    t += lengths[i];
  }
  auto settled = m.settle(later(t + 5000), true);
  ASSERT_EQ(settled.size(), 8u);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(settled[i].gc, i % 3 ? "Copy" : "MarkSweepCompact") << i;
    EXPECT_EQ(settled[i].collections.size(), 1u) << i;
    EXPECT_EQ(settled[i].action, "end of " + settled[i].gc);
  }
  ASSERT_TRUE(m.offset_ms());
  EXPECT_NEAR(*m.offset_ms(), origin, 1.0);
  EXPECT_EQ(m.unmatched_notifications(), 0u);
}

TEST(GcPauseMatcher, PeriodicPausesDoNotShiftByAPeriod) {
  // Evenly spaced pauses would also line up one period off, except at the
  // edges: the matcher must pick the offset that explains every notification.
  GcPauseMatcher m;
  double t = origin + 500;
  for (int i = 0; i < 20; ++i, t += 13) {
    m.add_pause(pause(t, t + 1.5));
    m.add_notification(note("PS Scavenge", t + 0.1, t + 1.4, "n" + std::to_string(i)));
  }
  auto settled = m.settle(later(t + 5000), true);
  ASSERT_EQ(settled.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(settled[i].cause, "n" + std::to_string(i)) << i;
}

TEST(GcPauseMatcher, OnePauseWithTwoCollectionsTakesTheLastOnesName) {
  // Parallel on JDK 17: System.gc() scavenges, then compacts, in one pause.
  GcPauseMatcher m;
  double t = origin + 200;
  m.add_pause(pause(t, t + 8.5));
  // The scavenge may well be the longer one (an almost empty old generation).
  m.add_notification(note("PS Scavenge", t + 0.2, t + 6.1, "System.gc()"));
  m.add_notification(note("PS MarkSweep", t + 6.2, t + 8.3, "System.gc()"));
  m.add_pause(pause(t + 40, t + 41));
  m.add_notification(note("PS Scavenge", t + 40.1, t + 40.9, "Allocation Failure"));
  auto settled = m.settle(later(t + 5000), true);
  ASSERT_EQ(settled.size(), 2u);
  EXPECT_EQ(settled[0].gc, "PS MarkSweep");
  EXPECT_EQ(settled[0].cause, "System.gc()");
  EXPECT_EQ(settled[0].collections, (std::vector<std::string>{"PS Scavenge", "PS MarkSweep"}));
  EXPECT_EQ(settled[1].gc, "PS Scavenge");
  EXPECT_EQ(settled[1].cause, "Allocation Failure");
}

TEST(GcPauseMatcher, TwoPausesInOneMillisecondGetOneCollectionEach) {
  // ZGC on JDK 25 has pauses 0.25 ms apart: both notifications read the same ms.
  GcPauseMatcher m;
  double t = origin + 300.1;
  for (int i = 0; i < 4; ++i) {  // calibration material first
    m.add_pause(pause(t + i * 9.3, t + i * 9.3 + 0.02));
    m.add_notification(note("ZGC Major Pauses", t + i * 9.3 + 0.005, t + i * 9.3 + 0.015, "c" + std::to_string(i)));
  }
  double u = t + 50.2;
  m.add_pause(pause(u, u + 0.011));
  m.add_notification(note("ZGC Minor Pauses", u + 0.002, u + 0.009, "first"));
  m.add_pause(pause(u + 0.25, u + 0.256));
  m.add_notification(note("ZGC Minor Pauses", u + 0.251, u + 0.255, "second"));
  auto settled = m.settle(later(u + 5000), true);
  ASSERT_EQ(settled.size(), 6u);
  EXPECT_EQ(settled[4].cause, "first");
  EXPECT_EQ(settled[5].cause, "second");
  EXPECT_EQ(settled[4].collections.size(), 1u);
  EXPECT_EQ(settled[5].collections.size(), 1u);
}

TEST(GcPauseMatcher, WaitsForTheNotificationThenGivesUpAsUnknown) {
  GcPauseMatcher m;
  double t = origin + 100;
  m.add_pause(pause(t, t + 2));
  m.add_notification(note("G1 Young Generation", t + 0.1, t + 1.9));
  EXPECT_TRUE(m.settle(later(t + 10), true).empty()) << "another collection of this pause may follow";
  EXPECT_EQ(m.settle(later(t + 2) + GcPauseMatcher::complete_delay_ns, true).size(), 1u);
  // A pause with no notification: while no later notification arrived, its
  // own may just be late (busy service thread)...
  m.add_pause(pause(t + 50, t + 51));
  EXPECT_TRUE(m.settle(later(t + 51) + GcPauseMatcher::settle_delay_ns + 1, true).empty());
  // ...until the JVM clearly is not sending one.
  auto settled = m.settle(later(t + 51) + GcPauseMatcher::give_up_delay_ns, true);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_EQ(settled[0].gc, "unknown");
  EXPECT_FALSE(settled[0].matched());
  EXPECT_TRUE(settled[0].cause.empty());
}

TEST(GcPauseMatcher, ALateNotificationStillFindsItsPause) {
  GcPauseMatcher m;
  double t = origin + 100;
  m.add_pause(pause(t, t + 2));
  m.add_notification(note("G1 Young Generation", t + 0.1, t + 1.9));
  m.add_pause(pause(t + 50, t + 51));
  ASSERT_EQ(m.settle(later(t + 51) + 3 * GcPauseMatcher::settle_delay_ns, true).size(), 1u);
  m.add_notification(note("G1 Old Generation", t + 50.1, t + 50.9, "late"));
  auto settled = m.settle(later(t + 51) + 3 * GcPauseMatcher::settle_delay_ns, true);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_EQ(settled[0].gc, "G1 Old Generation");
  EXPECT_EQ(settled[0].cause, "late");
}

TEST(GcPauseMatcher, AnUnmatchedPauseWaitsTheGraceEvenWhenLaterOnesArrive) {
  // A wrong early offset (few samples) must not turn a pause "unknown" for
  // good: a pause without a notification waits the full grace period, by
  // which time the offset rests on more data.
  GcPauseMatcher m;
  double t = origin + 100;
  m.add_pause(pause(t, t + 2));
  m.add_notification(note("G1 Young Generation", t + 0.1, t + 1.9));
  m.add_pause(pause(t + 20, t + 20.7));  // Remark: no notification
  m.add_pause(pause(t + 40, t + 42));
  m.add_notification(note("G1 Young Generation", t + 40.1, t + 41.9));
  auto settled = m.settle(later(t + 43), true);
  ASSERT_EQ(settled.size(), 1u) << "pauses settle in order: the Remark pause holds the later one back";
  EXPECT_EQ(settled[0].gc, "G1 Young Generation");
  auto rest = m.settle(later(t + 20.7) + GcPauseMatcher::settle_delay_ns, true);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].gc, "unknown");
  EXPECT_EQ(rest[1].gc, "G1 Young Generation");
}

TEST(GcPauseMatcher, AWrongEarlyOffsetIsCorrectedBeforeAnyPauseIsGivenUp) {
  // The first poll sees one full pause and, by bad luck, the notification
  // of the next (young) pause only: any offset "fits" a single pairing.
  GcPauseMatcher m;
  double t = origin + 100;
  m.add_pause(pause(t, t + 6));        // full GC
  m.add_pause(pause(t + 30, t + 31));  // young
  m.add_notification(note("G1 Young Generation", t + 30.1, t + 30.9));
  EXPECT_EQ(m.settle(later(t + 32), true).size(), 0u) << "the full pause waits for its notification";
  // Its notification arrives late (the service thread was busy), then more pauses.
  m.add_notification(note("G1 Old Generation", t + 0.2, t + 5.8));
  for (int i = 1; i <= 4; ++i) {
    double s = t + 30 + i * 11.3;
    m.add_pause(pause(s, s + 1));
    m.add_notification(note("G1 Young Generation", s + 0.1, s + 0.9));
  }
  auto settled = m.settle(later(t + 200), true);
  ASSERT_EQ(settled.size(), 6u);
  EXPECT_EQ(settled[0].gc, "G1 Old Generation");
  for (size_t i = 1; i < settled.size(); ++i) EXPECT_EQ(settled[i].gc, "G1 Young Generation") << i;
  EXPECT_EQ(m.unmatched_notifications(), 0u);
}

TEST(GcPauseMatcher, WithoutNotificationsEveryPauseSettlesAtOnceAsUnknown) {
  GcPauseMatcher m;
  m.add_pause(pause(1000, 1001));
  m.add_pause(pause(1010, 1012));
  auto settled = m.settle(later(1012), false);
  ASSERT_EQ(settled.size(), 2u);
  EXPECT_EQ(settled[0].gc, "unknown");
  EXPECT_EQ(settled[1].raw.duration_ns(), 2 * ns_per_ms);
}

TEST(GcPauseMatcher, WithoutNotificationsTheOnlyStopTheWorldCollectorNamesEveryPause) {
  // gc_notifications off (auto, for ZGC on JDK 17 and Shenandoah): their
  // one pause bean counts every pause.
  GcPauseMatcher m;
  m.set_fallback_collector("Shenandoah Pauses");
  m.add_pause(pause(1000, 1000.05));
  auto settled = m.settle(later(1000.05), false);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_EQ(settled[0].gc, "Shenandoah Pauses");
  EXPECT_EQ(settled[0].collections, std::vector<std::string>{"Shenandoah Pauses"});
  EXPECT_TRUE(settled[0].cause.empty()) << "no notification, no cause";
}

TEST(GcPauseMatcher, ANotificationJustOutsideItsPauseIsTakenBeforeGivingUp) {
  GcPauseMatcher m;
  double t = origin + 100;
  for (int i = 0; i < 6; ++i) {
    double s = t + i * 12.7;
    m.add_pause(pause(s, s + 1.5));
    // The fourth collection is reported 3 ms early: no strict fit.
    double skew = i == 3 ? -3 : 0;
    m.add_notification(note("G1 Young Generation", s + 0.1 + skew, s + 1.4 + skew, "n" + std::to_string(i)));
  }
  auto settled = m.settle(later(t + 5000), true);
  ASSERT_EQ(settled.size(), 6u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(settled[i].cause, "n" + std::to_string(i)) << i;
  EXPECT_EQ(m.unmatched_notifications(), 0u);
}

TEST(GcPauseMatcher, ALateNotificationThatAlsoFitsTheNextPauseStaysWithItsOwn) {
  // Shenandoah/ZGC pauses can follow each other within a millisecond: the
  // first pause's notification, reported a little late, fits the second
  // pause, which has its own.
  GcPauseMatcher m;
  double t = origin + 100.2;
  for (int i = 0; i < 5; ++i) {  // calibration material
    double s = t + i * 9.1;
    m.add_pause(pause(s, s + 0.05));
    m.add_notification(note("Shenandoah Pauses", s + 0.01, s + 0.04, "c"));
  }
  double u = t + 80.2;
  m.add_pause(pause(u, u + 0.05));
  m.add_pause(pause(u + 0.9, u + 0.95));
  m.add_notification(note("Shenandoah Pauses", u + 1.0, u + 1.0, "first, late"));
  m.add_notification(note("Shenandoah Pauses", u + 0.91, u + 0.94, "second"));
  auto settled = m.settle(later(u + 5000), true);
  ASSERT_EQ(settled.size(), 7u);
  EXPECT_EQ(settled[5].cause, "first, late");
  EXPECT_EQ(settled[6].cause, "second");
  EXPECT_EQ(settled[6].collections.size(), 1u);
}

TEST(GcPauseMatcher, NotificationOfAPauseNeverSeenIsCountedUnmatched) {
  // E.g. a pause lost to a full pause buffer.
  GcPauseMatcher m;
  double t = origin + 100;
  for (int i = 0; i < 5; ++i) {
    double s = t + i * 17.3;
    if (i != 2) m.add_pause(pause(s, s + 1));
    m.add_notification(note("Copy", s + 0.1, s + 0.9));
  }
  auto settled = m.settle(later(t + 5000), true);
  ASSERT_EQ(settled.size(), 4u);
  for (const auto& p : settled) EXPECT_EQ(p.gc, "Copy");
  EXPECT_EQ(m.unmatched_notifications(), 1u);
}

TEST(GcPauseMatcher, TheFirstPausesWaitForTheFirstNotificationAsLongAsALateOne) {
  // The JVM's first notifications are its slowest (measured 1.1-1.4 s late
  // under load): with no notification yet, pauses wait as for a late one.
  GcPauseMatcher m;
  double t = origin + 100;
  for (int i = 0; i < 3; ++i) m.add_pause(pause(t + i * 20, t + i * 20 + 2));
  EXPECT_TRUE(m.settle(later(t + 42) + 2 * GcPauseMatcher::settle_delay_ns, true).empty());
  for (int i = 0; i < 3; ++i) m.add_notification(note("Copy", t + i * 20 + 0.1, t + i * 20 + 1.9));
  auto settled = m.settle(later(t + 42) + 2 * GcPauseMatcher::settle_delay_ns, true);
  ASSERT_EQ(settled.size(), 3u);
  for (const auto& p : settled) EXPECT_EQ(p.gc, "Copy");
}

}  // namespace
}  // namespace jvmsight
