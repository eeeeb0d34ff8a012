// Deadlocks of virtual threads (JDK 21+), found by the background check.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/lock_graph/deadlock_truth.h"

namespace jvmsight::test {
namespace {

class VirtualDeadlock : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(VirtualDeadlock, all_jdks().from(21));

// ThreadMXBean and jstack cannot see virtual threads; the fixture's ground
// truth is what the locks say (owner, queued threads). Its two threads are
// an executor's, so the walk must read the registered containers' sets (the
// block profile's fixture starts its threads in the root container).
TEST_P(VirtualDeadlock, FoundByTheBackgroundCheckOnJdk21Plus) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"virtual"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  ASSERT_EQ(truth.names, (std::set<std::string>{"vt-a", "vt-b"})) << *line;
  auto seen = wait_for_stderr(*jvm.process, "deadlock detected", 10s);
  ASSERT_TRUE(seen) << jvm.process->err();
  EXPECT_LT(*seen - truth.at_ms, 1500) << "reported late";
  EXPECT_EQ(report_deadlocked(jvm.process->err()), truth.names) << jvm.process->err();
  // Stacks from the virtual threads themselves (ThreadMXBean has none).
  EXPECT_EQ(count_of(jvm.process->err(), "\tat Deadlocks.with(Deadlocks.java:"), 4u) << jvm.process->err();
  EXPECT_EQ(jvm.process->err().find("(stack unavailable)"), std::string::npos) << jvm.process->err();
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), 0.0);
  EXPECT_EQ(s.value("jvmsight_deadlock_cycles"), 1.0);
  HttpResult text = jvm.get("/deadlocks");
  EXPECT_EQ(report_deadlocked(text.body), truth.names) << text.body;
  EXPECT_NE(text.body.find("(a java.util.concurrent.locks.ReentrantLock$NonfairSync)"), std::string::npos) << text.body;
}

}  // namespace
}  // namespace jvmsight::test
