// What the deadlock check decides to read before it asks the JVM: edge
// reuse, skipping blocked threads that moved in a contention storm, and the
// budget of the virtual-thread walk.
#include "collectors/lock_graph/scan_planner.h"

#include <gtest/gtest.h>

#include <map>

namespace jvmsight {
namespace {

// The JVM's blocked counts, set by the test; counts every read.
class ScriptedCounts : public BlockedCountReader {
 public:
  std::map<jlong, jlong> count;
  int reads = 0;
  std::optional<std::vector<jlong>> of(const std::vector<jlong>& ids) override {
    ++reads;
    std::vector<jlong> out;
    for (jlong id : ids) out.push_back(count.count(id) ? count[id] : BlockedProgress::unknown);
    return out;
  }
};

constexpr jint parked_group = 0;  // parked on the first j.u.c. lock the Java pass grouped

// Candidates as the Java pass reports them: threads 101, 102 blocked on a
// monitor, 103 parked on a j.u.c. lock.
ScanPlan background() {
  ScanPlan p;
  p.from_java = true;
  p.candidates = {3, 5, 6};
  p.ids = {101, 102, 103};
  p.groups = {ScanPlan::monitor_group, ScanPlan::monitor_group, parked_group};
  return p;
}

WaitForGraph pileup() {
  WaitForGraph g;
  for (ThreadKey waiter : {101, 102}) {
    WaitEdge e;
    e.waiter = waiter;
    e.lock.identity_hash = 7;
    e.owner = 900;
    g.add(e);
  }
  return g;
}

// One background check: decide, then what it read.
ScanPlan check(ScanPlanner& planner, bool blocked_anew, bool allow_reuse = true) {
  ScanPlan p = background();
  planner.decide(p, allow_reuse, blocked_anew);
  planner.scanned(p, pileup());
  return p;
}

TEST(ScanPlanner, ReusesMonitorEdgesWhileNothingBlocksAnew) {
  ScriptedCounts counts;
  ScanPlanner planner(&counts);
  EXPECT_FALSE(check(planner, true).reuse);  // the first check reads everything
  EXPECT_TRUE(check(planner, false).reuse);
  EXPECT_FALSE(check(planner, true).reuse);
  EXPECT_FALSE(check(planner, false, false).reuse);  // a second look at a cycle is fresh
}

TEST(ScanPlanner, WithoutTheJavaPassEveryEdgeIsRead) {
  ScanPlanner planner(nullptr);
  for (int i = 0; i < 3; ++i) {
    ScanPlan p;
    p.candidates = {0, 1, 2, 3};
    planner.decide(p, true, false);
    EXPECT_FALSE(p.reuse);
    planner.scanned(p, pileup());
  }
}

TEST(ScanPlanner, AScrapeNeitherReusesNorDisturbsTheCache) {
  ScanPlanner planner(nullptr);
  check(planner, true);
  EXPECT_TRUE(check(planner, false).reuse);
  EXPECT_TRUE(check(planner, false).reuse);
  ScanPlan full = background();
  full.full = true;
  planner.decide(full, true, true);
  planner.scanned(full, WaitForGraph{});
  EXPECT_FALSE(full.reuse);
  EXPECT_TRUE(full.moved.empty());
  EXPECT_TRUE(check(planner, false).reuse);   // the third reuse in a row
  EXPECT_FALSE(check(planner, false).reuse);  // then a fresh check
}

TEST(ScanPlanner, InAStormOnlyBlockedThreadsThatStoodStillAreRead) {
  ScriptedCounts counts;
  ScanPlanner planner(&counts);
  counts.count = {{101, 40}, {102, 7}};
  // A single burst of new blocking (a deadlock forming) is read whole.
  ScanPlan first = check(planner, true);
  EXPECT_TRUE(first.moved.empty());
  EXPECT_EQ(counts.reads, 1);
  // Blocked anew again: 101 entered the monitor meanwhile (a storm), 102 is stuck.
  counts.count[101] = 55;
  ScanPlan second = check(planner, true);
  ASSERT_EQ(second.moved.size(), 3u);
  EXPECT_TRUE(second.skips(0));
  EXPECT_FALSE(second.skips(1));
  EXPECT_FALSE(second.skips(2));  // parked threads are always read
  // Some edges were not read: nothing to reuse at the next quiet check.
  EXPECT_FALSE(check(planner, false).reuse);
}

TEST(ScanPlanner, AQuietCheckEndsTheStorm) {
  ScriptedCounts counts;
  ScanPlanner planner(&counts);
  counts.count = {{101, 1}, {102, 1}};
  check(planner, true);
  check(planner, false);  // reuses: threads stopped blocking anew
  counts.count[101] = 2;
  EXPECT_TRUE(check(planner, true).moved.empty());  // read whole again
}

TEST(ScanPlanner, TooManyBlockedThreadsAreReadWithoutCounts) {
  ScriptedCounts counts;
  ScanPlanner planner(&counts);
  auto crowd = [] {
    ScanPlan p;
    p.from_java = true;
    for (jint i = 0; i <= static_cast<jint>(ScanPlanner::max_progress_reads); ++i) {
      p.candidates.push_back(i);
      p.ids.push_back(1000 + i);
      p.groups.push_back(ScanPlan::monitor_group);
    }
    return p;
  };
  for (int i = 0; i < 3; ++i) {
    ScanPlan p = crowd();
    planner.decide(p, true, true);
    EXPECT_TRUE(p.moved.empty());
  }
  EXPECT_EQ(counts.reads, 0);
}

TEST(ScanPlanner, WithoutCountsEveryBlockedThreadIsRead) {
  ScanPlanner planner(nullptr);
  check(planner, true);
  EXPECT_TRUE(check(planner, true).moved.empty());
}

TEST(ScanPlanner, VirtualWalkIsSpacedByItsOwnCost) {
  ScanPlanner planner(nullptr);
  const auto t0 = ScanPlanner::Clock::time_point{} + std::chrono::hours(1);
  EXPECT_FALSE(planner.virtual_walk_due(0, t0));  // no virtual thread alive
  EXPECT_FALSE(planner.virtual_walk_due(ScanPlanner::max_virtual_walked + 1, t0));
  ASSERT_TRUE(planner.virtual_walk_due(10, t0));
  planner.virtual_walked(t0, t0 + std::chrono::milliseconds(1));
  const auto next = t0 + ScanPlanner::virtual_walk_spacing * std::chrono::milliseconds(1);
  EXPECT_FALSE(planner.virtual_walk_due(10, next - std::chrono::milliseconds(1)));
  EXPECT_TRUE(planner.virtual_walk_due(10, next));
  // A cycle found must be confirmed: the next check walks at once.
  planner.checked(true);
  EXPECT_TRUE(planner.virtual_walk_due(10, t0 + std::chrono::milliseconds(2)));
  planner.checked(false);
  EXPECT_FALSE(planner.virtual_walk_due(10, t0 + std::chrono::milliseconds(2)));
}

}  // namespace
}  // namespace jvmsight
