// No deadlock: a heavily blocked pool reports zero, lock queues match
// ThreadMXBean, and the detail endpoints' options and formats.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/lock_graph/deadlock_truth.h"

namespace jvmsight::test {
namespace {

class NoDeadlock : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(NoDeadlock, system_jdks());

TEST_P(NoDeadlock, HeavilyBlockedPoolReportsZeroRepeatedly) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"pool"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 30s);
  ASSERT_TRUE(line);
  ASSERT_EQ(parse_truth(*line).all, 0);
  for (int i = 0; i < 8; ++i) {
    PromScrape s = jvm.scrape();
    EXPECT_EQ(s.value("jvm_threads_deadlocked"), 0.0);
    EXPECT_EQ(s.value("jvm_threads_deadlocked_monitor"), 0.0);
    EXPECT_EQ(s.value("jvmsight_deadlock_cycles"), 0.0);
    EXPECT_EQ(jvm.get("/deadlocks").body, "No deadlock found.\n");
    std::this_thread::sleep_for(300ms);
  }
  PromScrape s = jvm.scrape();
  EXPECT_GE(s.value("jvmsight_deadlock_checks_total").value_or(0), 4);
  EXPECT_EQ(parse_truth(jvm.report("DEADLOCKED")).all, 0);
  EXPECT_EQ(jvm.process->err().find("deadlock detected"), std::string::npos) << jvm.process->err();
  // A pool's waits hold no lock order in a cycle: no potential deadlock either.
  EXPECT_EQ(jvm.get("/deadlocks?format=json").body,
            "{\"potential_deadlocks\":[],\"potential_count\":0,\"deadlocks\":[],\"count\":0}\n");
}

TEST_P(NoDeadlock, QueuesBehindHoldersMatchThreadMXBean) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"pool"});
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED ", 30s));
  jvm.process->send("queues");
  auto line = jvm.process->wait_for_line("QUEUES ", 30s);
  ASSERT_TRUE(line);
  auto truth = parse_report(*line);
  PromScrape s = jvm.scrape();
  std::map<std::string, long> seen;
  for (const auto& q : s.all("jvmsight_lock_queue_length")) seen[q.labels.at("holder")] += static_cast<long>(q.value);
  // The top holders the agent lists, each with ThreadMXBean's count of threads waiting on it.
  EXPECT_EQ(seen["pool-holder"], 21);  // 20 blocked + pool-middle
  EXPECT_EQ(seen["pool-middle"], 10);  // parked on its ReentrantLock
  for (const auto& [holder, n] : seen) EXPECT_EQ(n, truth[holder]) << holder;
  EXPECT_EQ(s.all("jvmsight_lock_queue_length").size(), 10u) << "bounded to the top 10 holders";
  const std::string rl = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
  const std::string sem = "java.util.concurrent.Semaphore$NonfairSync";
  EXPECT_EQ(s.value("jvmsight_juc_parked_threads", {{"lock_class", rl}}), truth["parked." + rl]);
  EXPECT_EQ(s.value("jvmsight_juc_parked_threads", {{"lock_class", sem}}), truth["parked." + sem]);
  EXPECT_EQ(truth["parked." + rl], 10);
  EXPECT_EQ(truth["parked." + sem], 5);
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}), 30.0);  // 20 + middle + 9 chain links
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "juc"}}), 15.0);
  // Who holds it and where: the holder's stack in /threads.
  std::string threads = jvm.get("/threads").body;
  EXPECT_NE(threads.find("is held by \"pool-holder\""), std::string::npos);
  size_t holder = threads.find("\n\"pool-holder\" #");
  ASSERT_NE(holder, std::string::npos);
  EXPECT_NE(threads.find("- locked <", holder), std::string::npos);
}

TEST_P(NoDeadlock, DetailsOffRemovesThreadAndDeadlockEndpoints) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"monitor2"}, "details=off");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(jvm.get("/threads").status, 404);
  EXPECT_EQ(jvm.get("/deadlocks").status, 404);
  EXPECT_EQ(jvm.get("/deadlocks?format=xml").status, 404);
  // The gauges and the stderr report stay: they say that, not where.
  ASSERT_TRUE(wait_for_stderr(*jvm.process, "deadlock detected", 10s));
  EXPECT_EQ(jvm.scrape().value("jvm_threads_deadlocked"), 2.0);
}

TEST_P(NoDeadlock, UnknownFormatIsABadRequest) {
  AgentJvm jvm(GetParam(), "Idle");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(jvm.get("/threads?format=xml").status, 400);
  EXPECT_EQ(jvm.get("/deadlocks?format=xml").status, 400);
  HttpResult t = jvm.get("/threads");
  EXPECT_EQ(t.status, 200);
  EXPECT_NE(t.body.find("\n\"main\" #"), std::string::npos) << t.body;
  EXPECT_NE(t.body.find("\tat java.io.FileInputStream.read"), std::string::npos) << t.body;
}

}  // namespace
}  // namespace jvmsight::test
