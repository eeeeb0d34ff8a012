#include "collectors/lock_graph/deadlock_detector.h"

#include <gtest/gtest.h>

#include <deque>

namespace jvmsight {
namespace {

WaitEdge edge(ThreadKey waiter, int32_t lock, ThreadKey owner, LockKind kind = LockKind::monitor) {
  WaitEdge e;
  e.waiter = waiter;
  e.waiter_name = "t" + std::to_string(waiter);
  e.lock = {lock, "java.lang.Object", kind};
  e.owner = owner;
  e.owner_name = "t" + std::to_string(owner);
  return e;
}

LockScan cycle_scan(int32_t first_lock = 10) {
  LockScan s;
  s.graph.add(edge(1, first_lock, 2));
  s.graph.add(edge(2, 20, 1, LockKind::juc));
  s.list_order = {1, 2};
  return s;
}

// Hands out scripted scans, then repeats the last one.
class ScriptedSource : public LockGraphSource {
 public:
  std::deque<std::optional<LockScan>> script;
  int scans = 0;
  std::optional<LockScan> scan(ScanDepth) override {
    ++scans;
    auto s = script.front();
    if (script.size() > 1) script.pop_front();
    return s;
  }
  bool stops_the_world() const override { return false; }
};

struct Fixture {
  ScriptedSource source;
  std::vector<DeadlockCycle> reported;
  std::vector<std::chrono::milliseconds> sleeps;
  DeadlockDetector detector{source, [this](const DeadlockCycle& c) { reported.push_back(c); },
                            std::chrono::milliseconds(100),
                            [this](std::chrono::milliseconds d) { sleeps.push_back(d); }};
  double gauge(const std::string& name) {
    MetricFamilies out;
    detector.collect(out);
    if (const MetricFamily* f = find_family(out, name)) return f->samples.at(0).value;
    ADD_FAILURE() << name << " missing";
    return -1;
  }
  bool served(const std::string& name) {
    MetricFamilies out;
    detector.collect(out);
    return find_family(out, name) != nullptr;
  }
};

TEST(DeadlockDetector, NothingBlockedMeansOneCheapScanAndZeros) {
  Fixture f;
  f.source.script = {LockScan{}};
  f.detector.check();
  EXPECT_EQ(f.source.scans, 1);
  EXPECT_TRUE(f.sleeps.empty());
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 0);
  EXPECT_EQ(f.gauge("jvmsight_deadlock_cycles"), 0);
}

// A median hides expensive checks: the totals count every check, those that
// found a cycle (and slept to confirm it) too.
TEST(DeadlockDetector, TotalsCountEveryCheck) {
  Fixture f;
  f.source.script = {LockScan{}};
  EXPECT_EQ(f.gauge("jvmsight_deadlock_check_cpu_seconds_total"), 0);
  f.detector.check();
  const double after_one = f.gauge("jvmsight_deadlock_check_duration_seconds_total");
  EXPECT_GT(after_one, 0);
  EXPECT_GE(f.gauge("jvmsight_deadlock_check_cpu_seconds_total"), 0);
  f.source.script = {cycle_scan()};
  f.detector.check();  // a cycle: not in the median, but in the totals
  EXPECT_GT(f.gauge("jvmsight_deadlock_check_duration_seconds_total"), after_one);
}

TEST(DeadlockDetector, CycleSeenTwiceIsReportedOnceAndCounted) {
  Fixture f;
  f.source.script = {cycle_scan()};
  f.detector.check();
  EXPECT_EQ(f.source.scans, 2);  // the second look, 100 ms later
  ASSERT_EQ(f.sleeps.size(), 1u);
  EXPECT_EQ(f.sleeps[0], std::chrono::milliseconds(100));
  ASSERT_EQ(f.reported.size(), 1u);
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 2);
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked_monitor"), 0);  // mixed: not monitor-only
  EXPECT_EQ(f.gauge("jvmsight_deadlock_cycles"), 1);
  for (int i = 0; i < 5; ++i) f.detector.check();
  EXPECT_EQ(f.reported.size(), 1u) << "a deadlock is logged once";
  EXPECT_EQ(f.sleeps.size(), 1u) << "a confirmed cycle needs no second look";
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 2);
}

TEST(DeadlockDetector, RacySnapshotCycleThatVanishesIsNeverReported) {
  Fixture f;
  f.source.script = {cycle_scan(), LockScan{}};
  f.detector.check();
  EXPECT_TRUE(f.reported.empty());
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 0);
}

TEST(DeadlockDetector, CycleThatChangesLocksBetweenScansIsNotConfirmed) {
  Fixture f;
  f.source.script = {cycle_scan(10), cycle_scan(11), cycle_scan(12), LockScan{}};
  f.detector.check();
  f.detector.check();
  EXPECT_TRUE(f.reported.empty());
  EXPECT_EQ(f.gauge("jvmsight_deadlock_cycles"), 0);
}

TEST(DeadlockDetector, MonitorOnlyCycleCountsForBothGauges) {
  Fixture f;
  LockScan s;
  s.graph.add(edge(1, 10, 2));
  s.graph.add(edge(2, 20, 3));
  s.graph.add(edge(3, 30, 1));
  s.list_order = {1, 2, 3};
  f.source.script = {s};
  f.detector.check();
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 3);
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked_monitor"), 3);
}

TEST(DeadlockDetector, FailedScanKeepsStateAndCountsTheFailure) {
  Fixture f;
  f.source.script = {cycle_scan(), cycle_scan(), std::nullopt};
  f.detector.check();
  f.detector.check();
  EXPECT_EQ(f.gauge("jvmsight_deadlock_check_failures_total"), 1);
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 2);
}

TEST(DeadlockDetector, RepeatedFailuresAreCountedNotFatal) {
  Fixture f;
  f.source.script = {std::nullopt};
  for (int i = 0; i < 5; ++i) f.detector.check();  // logs one line at the third
  EXPECT_EQ(f.gauge("jvmsight_deadlock_check_failures_total"), 5);
  // Not a false 0 that would hide a deadlock: absent, so absent() alerts fire.
  EXPECT_FALSE(f.served("jvm_threads_deadlocked"));
  EXPECT_FALSE(f.served("jvm_threads_deadlocked_monitor"));
  EXPECT_FALSE(f.served("jvmsight_deadlock_cycles"));
  EXPECT_FALSE(f.served("jvmsight_deadlock_check_last_success_timestamp_seconds"));
}

TEST(DeadlockDetector, GaugesAbsentUntilTheFirstCheckAndBackAfterARecovery) {
  Fixture f;
  EXPECT_FALSE(f.served("jvm_threads_deadlocked"));  // deadlock_check_ms=0 never checks
  EXPECT_TRUE(f.served("jvmsight_deadlock_checks_total"));
  f.source.script = {LockScan{}, std::nullopt, std::nullopt, std::nullopt, LockScan{}};
  f.detector.check();
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 0);
  double first_success = f.gauge("jvmsight_deadlock_check_last_success_timestamp_seconds");
  EXPECT_GT(first_success, 1.6e9);
  f.detector.check();
  f.detector.check();
  EXPECT_TRUE(f.served("jvm_threads_deadlocked")) << "two failures in a row may be the JVM exiting";
  f.detector.check();
  EXPECT_FALSE(f.served("jvm_threads_deadlocked"));
  EXPECT_EQ(f.gauge("jvmsight_deadlock_check_last_success_timestamp_seconds"), first_success);
  f.detector.check();
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 0);
}

TEST(DeadlockDetector, CountsBystandersAsThreadMxBeanDoes) {
  Fixture f;
  LockScan s = cycle_scan();
  s.graph.add(edge(7, 10, 1));  // waits for t1 of the cycle, listed before it
  s.graph.add(edge(9, 10, 1));  // waits for t1 too, listed after it
  s.list_order = {7, 1, 2, 9};
  f.source.script = {s};
  f.detector.check();
  EXPECT_EQ(f.gauge("jvm_threads_deadlocked"), 3);
  EXPECT_EQ(f.gauge("jvmsight_deadlock_cycles"), 1);
}

// The classes of the monitors a scan met go on to the contention labels.
struct RecordingClassSink : LockClassSink {
  std::vector<std::map<int32_t, std::string>> learned;
  void learn_classes(const std::map<int32_t, std::string>& classes) override { learned.push_back(classes); }
};

TEST(DeadlockDetector, MonitorClassesOfEachScanGoToTheClassSink) {
  Fixture f;
  RecordingClassSink sink;
  f.detector.set_class_sink(sink);
  LockScan with_classes;
  with_classes.monitor_classes = {{10, "app.Account"}, {11, "app.Ledger"}};
  f.source.script = {with_classes, LockScan{}};
  f.detector.check();
  ASSERT_EQ(sink.learned.size(), 1u);
  EXPECT_EQ(sink.learned[0], (std::map<int32_t, std::string>{{10, "app.Account"}, {11, "app.Ledger"}}));
  f.detector.check();  // a scan that met no monitor tells nobody
  EXPECT_EQ(sink.learned.size(), 1u);
}

}  // namespace
}  // namespace jvmsight
