// In a contention storm the blocked threads change at every check. The check
// reads monitor edges (handshakes, VM operations) only for threads that made
// no contended entry since the previous check, so the storm costs it next to
// no thread stops, and a deadlock forming in it is still found, one check later.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/lock_graph/deadlock_truth.h"

namespace jvmsight::test {
namespace {

class StormDeadlock : public ::testing::TestWithParam<JdkAndCase> {};
// The cases with a monitor on the cycle: the edges a storm could hide.
INSTANTIATE_TEST_SUITE_P(Jdks, StormDeadlock,
                         ::testing::Combine(::testing::ValuesIn(system_jdks().list()),
                                            ::testing::Values(Case{"monitor2", "Deadlocks$Resource"},
                                                              Case{"mixed", "Deadlocks$Resource"})),
                         case_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(StormDeadlock);

TEST_P(StormDeadlock, FoundWithoutStoppingTheStormsThreads) {
  const auto& [jdk, c] = GetParam();
  AgentJvm jvm(jdk, "Deadlocks", {c.kind, "6000", "storm"});
  ASSERT_GT(jvm.port, 0);
  // Before the deadlock: 8 threads storming on 2 monitors.
  std::this_thread::sleep_for(2s);
  PromScrape before = jvm.scrape();
  std::this_thread::sleep_for(3s);
  PromScrape after = jvm.scrape();
  double checks = after.value("jvmsight_deadlock_checks_total").value_or(0) -
                  before.value("jvmsight_deadlock_checks_total").value_or(0);
  double stops = after.value("jvmsight_deadlock_check_thread_stops_total").value_or(-1) -
                 before.value("jvmsight_deadlock_check_thread_stops_total").value_or(0);
  std::printf("[jvmsight] %s storm: %.0f thread stops in %.0f checks\n", jdk.name.c_str(), stops, checks);
  ASSERT_GE(checks, 4);
  // Re-reading the storm costs at least a handshake and a VM operation per
  // check (4-9 measured).
  EXPECT_GE(stops, 0);
  EXPECT_LT(stops, checks) << "the storm's edges are re-read at every check";

  auto seen = wait_for_stderr(*jvm.process, "deadlock detected", 10s);
  ASSERT_TRUE(seen) << jvm.process->err();
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 5s);
  ASSERT_TRUE(line);
  Truth truth = parse_truth(*line);
  long long latency = *seen - truth.at_ms;
  std::printf("[jvmsight] %s %s in a storm: reported %lld ms after ThreadMXBean first saw it\n", jdk.name.c_str(),
              c.kind.c_str(), latency);
  // Two checks 500 ms apart + 100 ms confirmation, plus noise.
  EXPECT_LT(latency, 2000) << "reported " << latency << " ms after forming";
  EXPECT_EQ(report_deadlocked(jvm.process->err()), truth.names);
  EXPECT_EQ(count_of(jvm.process->err(), "deadlock detected"), 1u) << jvm.process->err();
}

}  // namespace
}  // namespace jvmsight::test
