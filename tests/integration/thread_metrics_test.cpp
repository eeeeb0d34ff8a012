// /metrics thread telemetry compared with what the JVM itself reports
// (ThreadMXBean, Thread.State, stack tops) in the same process.
#include <gtest/gtest.h>

#include <thread>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/thread_truth.h"

namespace jvmsight::test {
namespace {

class ThreadMetrics : public ::testing::TestWithParam<Jdk> {};

// native_states=on: the in-native sub-state is compared too, on every JDK.
TEST_P(ThreadMetrics, CountsMatchThreadMXBeanExactly) {
  AgentJvm jvm(GetParam(), "ThreadStates", {"3", "2", "4", "2"}, "native_states=on");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(threads_agree(*jvm.process, jvm.port), "") << "agent /metrics vs ThreadMXBean in " << GetParam().name;
  // The fixture's own threads, as a floor the JVM's internals cannot explain away.
  auto seen = agent_thread_view(jvm.scrape());
  EXPECT_GE(seen["BLOCKED"], 3);
  EXPECT_GE(seen["sleeping"], 4);
  EXPECT_GE(seen["parked"], 3);  // 2 parked + the monitor holder
}

// The agent caches the thread list between scrapes: threads that start or end
// after a scrape must show up in the next one.
TEST_P(ThreadMetrics, FollowsThreadsStartedAndEndedBetweenScrapes) {
  AgentJvm jvm(GetParam(), "ThreadStates", {"1", "1", "1", "1"});
  ASSERT_GT(jvm.port, 0);
  // Everything but "native" (compared above; not collected by default on 21+).
  const std::vector<std::string> keys = {"NEW",        "RUNNABLE", "BLOCKED",  "WAITING",     "TIMED_WAITING",
                                         "TERMINATED", "parked",   "sleeping", "object_wait", "current",
                                         "daemon",     "peak",     "started"};
  auto agree = [&] {
    EXPECT_EQ(threads_agree(*jvm.process, jvm.port, keys), "");
    return agent_thread_view(jvm.scrape());
  };
  long before = agree()["TIMED_WAITING"];
  jvm.process->send("spawn 7");
  ASSERT_TRUE(jvm.process->wait_for_line("DONE spawned=7", 30s));
  EXPECT_EQ(agree()["TIMED_WAITING"], before + 7);
  jvm.process->send("end");
  ASSERT_TRUE(jvm.process->wait_for_line("DONE spawned=0", 30s));
  EXPECT_EQ(agree()["TIMED_WAITING"], before);
}

TEST_P(ThreadMetrics, NativeStatesByDefaultOnlyWhereCheap) {
  AgentJvm jvm(GetParam(), "ThreadStates");
  ASSERT_GT(jvm.port, 0);
  PromScrape s = jvm.scrape();
  bool cheap = GetParam().feature < 21;
  EXPECT_EQ(s.value("jvmsight_threads_substate", {{"substate", "native"}}).has_value(), cheap);
  EXPECT_EQ(s.value("jvmsight_threads_substate", {{"substate", "suspended"}}).has_value(), cheap);
  EXPECT_TRUE(s.value("jvmsight_threads_substate", {{"substate", "parked"}}));
  EXPECT_GE(s.value("jvm_threads_state", {{"state", "BLOCKED"}}).value_or(0), 3);
}

TEST_P(ThreadMetrics, AllSixStatesAlwaysPresentAndTypesRight) {
  AgentJvm jvm(GetParam(), "Idle");
  ASSERT_GT(jvm.port, 0);
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.all("jvm_threads_state").size(), 7u);  // and client_java's UNKNOWN, always 0
  EXPECT_EQ(s.value("jvm_threads_state", {{"state", "NEW"}}), 0.0);
  EXPECT_EQ(s.value("jvm_threads_state", {{"state", "TERMINATED"}}), 0.0);
  EXPECT_EQ(s.value("jvm_threads_state", {{"state", "UNKNOWN"}}), 0.0);
  EXPECT_EQ(s.type_of("jvm_threads_started_total"), "counter");
  EXPECT_EQ(s.type_of("jvm_threads_current"), "gauge");
  EXPECT_TRUE(s.value("jvmsight_scrape_duration_seconds"));
  auto info = s.all("jvmsight_build_info");
  ASSERT_EQ(info.size(), 1u);
  EXPECT_FALSE(info[0].labels["version"].empty());
  EXPECT_EQ(info[0].labels["jdk"].rfind(std::to_string(GetParam().feature), 0), 0u) << info[0].labels["jdk"];
}

TEST_P(ThreadMetrics, VirtualThreadsCountedOnJdk21Plus) {
  const Jdk& jdk = GetParam();
  if (jdk.feature < 21) {
    AgentJvm jvm(jdk, "Idle");
    ASSERT_GT(jvm.port, 0);
    PromScrape s = jvm.scrape();
    EXPECT_EQ(s.value("jvmsight_virtual_threads_supported"), 0.0);
    EXPECT_FALSE(s.value("jvmsight_virtual_threads_live"));
    GTEST_SKIP() << jdk.name << " has no virtual threads; checked they are reported unsupported";
  }
  AgentJvm jvm(jdk, "VirtualThreads", {"50", "30"});
  ASSERT_GT(jvm.port, 0);
  auto truth = parse_report(*jvm.process->wait_for_line("VIRTUAL ", 1s));
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvmsight_virtual_threads_supported"), 1.0);
  EXPECT_EQ(s.value("jvmsight_virtual_threads_started_total"), truth["started"]);
  EXPECT_EQ(s.value("jvmsight_virtual_threads_live"), truth["alive"]);
}

JVMSIGHT_ALL_JDKS(ThreadMetrics);

}  // namespace
}  // namespace jvmsight::test
