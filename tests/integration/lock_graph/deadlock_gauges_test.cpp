// client_java's deadlock gauges as the JVM counts them, and absent (never
// 0) when the check is off.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/lock_graph/deadlock_truth.h"

namespace jvmsight::test {
namespace {

class DeadlockGauges : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(DeadlockGauges, all_jdks());

// client_java's jvm_threads_deadlocked is findDeadlockedThreads().length,
// which lists a thread blocked on a deadlocked one when the JVM's thread
// list has it before the cycle: the same number as the JVM, bystanders and all.
TEST_P(DeadlockGauges, CountBystandersAsFindDeadlockedThreadsDoes) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"bystanders"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  EXPECT_EQ(truth.all, 3) << "the JVM lists the early bystander: " << *line;
  std::optional<double> all;
  for (int i = 0; i < 40 && all != truth.all; ++i) {
    all = jvm.scrape().value("jvm_threads_deadlocked");
    if (all != truth.all) std::this_thread::sleep_for(100ms);
  }
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), truth.monitor);
  EXPECT_EQ(s.value("jvmsight_deadlock_cycles"), 1.0) << "one cycle, whatever waits on it";
  EXPECT_EQ(parse_truth(jvm.report("DEADLOCKED")).all, truth.all);
}

// A check that is off reports nothing rather than a 0 that would hide a
// deadlock: absent() alerts can tell.
TEST_P(DeadlockGauges, AbsentWhenTheCheckIsOff) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"monitor2"}, "deadlock_check_ms=0");
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED ", 30s));
  PromScrape s = jvm.scrape();
  EXPECT_TRUE(s.value("jvm_threads_current").has_value());
  EXPECT_FALSE(s.value("jvm_threads_deadlocked").has_value());
  EXPECT_FALSE(s.value("jvm_threads_deadlocked_monitor").has_value());
  EXPECT_FALSE(s.value("jvmsight_deadlock_cycles").has_value());
  EXPECT_FALSE(s.value("jvmsight_deadlock_check_last_success_timestamp_seconds").has_value());
  EXPECT_EQ(s.value("jvmsight_deadlock_checks_total"), 0.0);
}

}  // namespace
}  // namespace jvmsight::test
