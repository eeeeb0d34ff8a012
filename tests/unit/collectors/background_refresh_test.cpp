// When work served from the background is redone, and when a collection
// must do it itself: the rules that bound its cost and its staleness.
#include "collectors/background_refresh.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

using namespace std::chrono_literals;
using Clock = BackgroundRefresh::Clock;

TEST(BackgroundRefresh, NothingIsDoneUntilSomeoneCollects) {
  BackgroundRefresh r;
  const Clock::time_point t0{};
  EXPECT_FALSE(r.due(t0 + 10s));
  EXPECT_TRUE(r.stale(t0)) << "no result yet: a collection does the work itself";
  r.demanded(t0);
  EXPECT_TRUE(r.due(t0));
}

TEST(BackgroundRefresh, RedoneEveryIntervalWhileCollectedAndNeverServedOlderThanTwice) {
  BackgroundRefresh r;
  const Clock::time_point t0{};
  r.demanded(t0);
  r.done(t0 + 1ms, 1ms);  // cheap: the interval is the minimum
  EXPECT_EQ(r.interval(), BackgroundRefresh::min_interval);
  EXPECT_FALSE(r.due(t0 + 500ms));
  EXPECT_TRUE(r.due(t0 + 1001ms));
  EXPECT_FALSE(r.stale(t0 + 2001ms));
  EXPECT_TRUE(r.stale(t0 + 2002ms));
}

TEST(BackgroundRefresh, CostlyWorkIsSpacedToAFixedShareOfACore) {
  BackgroundRefresh r;
  const Clock::time_point t0{};
  r.demanded(t0);
  r.done(t0 + 20ms, 20ms);
  EXPECT_EQ(r.interval(), 20ms * BackgroundRefresh::cost_spacing);  // 4 s: 0.5% of a core
  EXPECT_FALSE(r.due(t0 + 3s));
  EXPECT_TRUE(r.due(t0 + 4020ms));
  EXPECT_FALSE(r.stale(t0 + 8s)) << "the staleness bound grows with the spacing";
  EXPECT_TRUE(r.stale(t0 + 8021ms));
}

TEST(BackgroundRefresh, ALighterPaceSpacesCheapAndCostlyWorkFurther) {
  BackgroundRefresh r(5s, 1000);
  const Clock::time_point t0{};
  r.demanded(t0);
  r.done(t0 + 1ms, 1ms);
  EXPECT_FALSE(r.due(t0 + 4s)) << "cheap work: the minimum interval, not the default second";
  EXPECT_TRUE(r.due(t0 + 5001ms));
  r.done(t0 + 10s, 35ms);
  EXPECT_EQ(r.interval(), 35s) << "costly work: 1000 times its cost, 0.1% of a core";
  EXPECT_FALSE(r.stale(t0 + 80s));
  EXPECT_TRUE(r.stale(t0 + 80001ms));
}

TEST(BackgroundRefresh, StopsWhenNobodyCollectsAnyMore) {
  BackgroundRefresh r;
  const Clock::time_point t0{};
  r.demanded(t0);
  r.done(t0, 0ms);
  EXPECT_TRUE(r.due(t0 + BackgroundRefresh::demand_window));
  EXPECT_FALSE(r.due(t0 + BackgroundRefresh::demand_window + 1ms));
  r.demanded(t0 + 10min);
  EXPECT_TRUE(r.due(t0 + 10min));
}

TEST(BackgroundRefresh, ExportsAgeAndCostOnceItHasAResult) {
  BackgroundRefresh r;
  const Clock::time_point t0{};
  MetricFamilies none;
  r.add_families(none, "jvmsight_lock_queue", t0);
  EXPECT_TRUE(none.empty());
  r.done(t0, 3ms);
  MetricFamilies out;
  r.add_families(out, "jvmsight_lock_queue", t0 + 500ms);
  ASSERT_NE(find_family(out, "jvmsight_lock_queue_age_seconds"), nullptr);
  EXPECT_DOUBLE_EQ(find_family(out, "jvmsight_lock_queue_age_seconds")->samples.at(0).value, 0.5);
  EXPECT_DOUBLE_EQ(find_family(out, "jvmsight_lock_queue_refresh_seconds")->samples.at(0).value, 0.003);
}

}  // namespace
}  // namespace jvmsight
