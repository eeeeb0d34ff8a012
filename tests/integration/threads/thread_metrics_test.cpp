// /metrics thread telemetry compared with what the JVM itself reports
// (ThreadMXBean, Thread.State, stack tops) in the same process.
#include <gtest/gtest.h>

#include <thread>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/thread_truth.h"

namespace jvmsight::test {
namespace {

class ThreadMetrics : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(ThreadMetrics, all_jdks());

// native_states=on: the in-native sub-state is compared too, on every JDK
// that allows it (10+: NativeStatesByDefaultOnlyWhereCheapAndSafe).
TEST_P(ThreadMetrics, CountsMatchThreadMXBeanExactly) {
  AgentJvm jvm(GetParam(), "ThreadStates", {"3", "2", "4", "2"}, "native_states=on");
  ASSERT_GT(jvm.port, 0);
  std::vector<std::string> keys;  // all
  if (GetParam().feature < 10)
    keys = {"NEW",      "RUNNABLE",    "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED", "parked",
            "sleeping", "object_wait", "current", "daemon",  "peak",          "started"};
  EXPECT_EQ(threads_agree(*jvm.process, jvm.port, keys), "") << "agent /metrics vs ThreadMXBean in " << GetParam().name;
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

// Where cheap (before JDK 21) and safe: before thread-SMR (JDK 10)
// GetThreadState could read a thread that just ended, so never there, even
// when asked for.
TEST_P(ThreadMetrics, NativeStatesByDefaultOnlyWhereCheapAndSafe) {
  const bool safe = GetParam().feature >= 10;
  AgentJvm jvm(GetParam(), "ThreadStates", {}, safe ? "" : "native_states=on");
  ASSERT_GT(jvm.port, 0);
  PromScrape s = jvm.scrape();
  bool cheap = safe && GetParam().feature < 21;
  if (!safe) {
    EXPECT_NE(jvm.process->err().find("native_states=on is ignored"), std::string::npos) << jvm.process->err();
  }
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
  // java.vm.version: "17.0.2+8-..." from JDK 9; JDK 8's is HotSpot's own ("25.504-b01").
  const int f = GetParam().feature;
  const std::string version_prefix = f < 9 ? "25." : std::to_string(f);
  EXPECT_EQ(info[0].labels["jdk"].rfind(version_prefix, 0), 0u) << info[0].labels["jdk"];
  // Before JDK 21 no virtual threads, said so (VirtualThreads counts them on 21+).
  EXPECT_EQ(s.value("jvmsight_virtual_threads_supported"), f >= 21 ? 1.0 : 0.0);
  if (f < 21) {
    EXPECT_FALSE(s.value("jvmsight_virtual_threads_live"));
  }
}

}  // namespace
}  // namespace jvmsight::test
