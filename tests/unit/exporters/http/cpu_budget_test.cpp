// The server pauses only once its CPU use passes its share of a core.
#include "exporters/http/cpu_budget.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(CpuBudget, PausesOnlyPastItsShare) {
  CpuBudget budget(25);
  const int64_t ms = 1'000'000;
  EXPECT_EQ(budget.pause_due(0, 1000 * ms).count(), 0);
  // 10 ms of CPU in 100 ms: within 25%.
  EXPECT_EQ(budget.pause_due(10 * ms, 1100 * ms).count(), 0);
  // Then 100 ms of CPU in 100 ms: the 50 ms burst and 25 ms earned cover
  // 75; 25 ms of debt take 100 ms to earn back at 25%.
  auto pause = budget.pause_due(110 * ms, 1200 * ms);
  EXPECT_GE(pause.count(), 100);
  EXPECT_LE(pause.count(), 101);
  // A long busy spell never pauses more than half a second at once.
  EXPECT_EQ(budget.pause_due(10'000 * ms, 1300 * ms).count(), 500);
}

}  // namespace
}  // namespace jvmsight
