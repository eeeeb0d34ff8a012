// The block profile (/debug/pprof/block: threads parked on j.u.c. locks) as
// Go's own reader sees it (go tool pprof -raw), against a fixture that times
// its own waits at two call sites on fair ReentrantLocks (WaitSplit juc:
// nanoTime around each acquisition; waits of 120 ms and 200 ms, longer than
// the sampler's interval, which is what this checks: see PROFILES.md on
// shorter waits), on platform threads on every JDK and virtual threads on
// 21+; idle pool workers and a Condition waiter in the same JVM never show;
// deltas against the totals; and walks of virtual threads that end while
// threads churn.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/go_pprof.h"

namespace jvmsight::test {
namespace {

constexpr size_t contentions = 0, delay = 1;

class BlockProfile : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(BlockProfile, all_jdks());
class BlockProfileVirtual : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(BlockProfileVirtual, all_jdks().from(21));

GoPprof fetch(const AgentJvm& jvm, const std::string& query = "") {
  return served_contention_profile(jvm.port, "/debug/pprof/block" + query);
}

// The fixture's run starts ("go") once the agent thread samples parked
// threads: it builds the block profile after its start-up (the lock scan's
// Java pass and its warm-up), which a loaded machine stretches to a second.
void wait_until_sampling(AgentJvm& jvm) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!jvm.scrape().value("jvmsight_profile_interval_seconds", {{"profile", "block"}})) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the block profile never started";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// The sites are in the parked thread's stack, under the lock's acquire.
void check_split(const GoPprof& p, const std::map<std::string, long>& truth) {
  auto through = [&](size_t value, const char* site) { return double(p.through(value, site)); };
  check_site_split(p, {through(delay, "WaitSplit.slowSite"), through(delay, "WaitSplit.fastSite")},
                   {through(contentions, "WaitSplit.slowSite"), through(contentions, "WaitSplit.fastSite")}, truth,
                   "_waits");
  // The waiting thread's stack, leaf first: parked in a lock's acquire
  // called from the site, which is named and placed.
  bool placed = false;
  for (const auto& s : p.samples)
    for (size_t i = 0; i < s.functions.size(); ++i)
      placed = placed || (s.functions[i] == "WaitSplit.slowSite" && i > 0 &&
                          s.functions[i - 1] == "java.util.concurrent.locks.ReentrantLock.lock" &&
                          s.places[i].rfind("WaitSplit.java:", 0) == 0 && s.places[i] != "WaitSplit.java:0");
  EXPECT_TRUE(placed) << p.raw;
}

// Threads parked, but not on a lock: never in the block profile.
void check_no_idle_waiters(const GoPprof& p) {
  for (const char* idle : {"java.util.concurrent.ThreadPoolExecutor.getTask",
                           "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.await"})
    EXPECT_EQ(p.through(delay, idle) + p.through(contentions, idle), 0) << idle << "\n" << p.raw;
}

TEST_P(BlockProfile, SplitOfWaitingTimeAsTheFixtureMeasuredIt) {
  AgentJvm jvm(GetParam(), "WaitSplit", {"juc", "platform", "4000", "go"});
  ASSERT_GT(jvm.port, 0);
  wait_until_sampling(jvm);
  jvm.process->send("go");
  auto line = jvm.process->wait_for_line("SPLIT ", std::chrono::seconds(60));
  ASSERT_TRUE(line) << jvm.process->err();
  GoPprof p = fetch(jvm);
  check_split(p, parse_report(*line));
  check_no_idle_waiters(p);
}

TEST_P(BlockProfileVirtual, SplitOfWaitingTimeOnVirtualThreads) {
  std::vector<std::string> jvm_args;
  if (GetParam().feature < 24) jvm_args.push_back("-Djdk.virtualThreadScheduler.parallelism=8");
  AgentJvm jvm(GetParam(), "WaitSplit", {"juc", "virtual", "4000", "go"}, "", jvm_args);
  ASSERT_GT(jvm.port, 0);
  wait_until_sampling(jvm);
  jvm.process->send("go");
  auto line = jvm.process->wait_for_line("SPLIT ", std::chrono::seconds(60));
  ASSERT_TRUE(line) << jvm.process->err();
  check_split(fetch(jvm), parse_report(*line));
}

// Virtual threads started and ended by the million a second from start-up
// on (VirtualChurn, Skynet's trees): each walk of them ends, so the agent
// thread answers scrapes meanwhile. A walk that followed the churn held it
// for as long as the churn lasted: scrapes waited 5 s and got 503 "busy".
TEST_P(BlockProfileVirtual, WalksEndWhileVirtualThreadsChurn) {
  AgentJvm jvm(GetParam(), "VirtualChurn", {"12000"});
  ASSERT_GT(jvm.port, 0);
  std::this_thread::sleep_for(std::chrono::seconds(2));  // walks begun under the churn
  for (int i = 0; i < 3; ++i) {
    const auto reply = jvm.get("/metrics");
    EXPECT_EQ(reply.status, 200) << reply.body;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  EXPECT_EQ(jvm.process->last_line("CHURNED "), "") << "the churn ended before the scrapes did";
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED ", std::chrono::seconds(60))) << jvm.process->err();
}

// ?seconds=N is the delta over the window: taken across a run that starts
// after the first total and ends before the second, it equals their
// difference stack by stack. JDK-independent: one JDK.
TEST(BlockProfileDelta, SumsToTheTotalsOverTheSameWindow) {
  // The run lasts 2 s and starts 3 s after "go"; the window opens right
  // after the first total and closes 8 s later.
  AgentJvm jvm(system_jdks().list().front(), "WaitSplit", {"juc", "platform", "2000", "go"});
  ASSERT_GT(jvm.port, 0);
  wait_until_sampling(jvm);
  GoPprof before = fetch(jvm);
  std::thread later([&jvm] {
    std::this_thread::sleep_for(std::chrono::seconds(3));
    jvm.process->send("go");
  });
  GoPprof delta = fetch(jvm, "?seconds=8");
  later.join();
  auto line = jvm.process->wait_for_line("SPLIT ", std::chrono::seconds(10));
  ASSERT_TRUE(line) << "the run did not end inside the delta's window";
  GoPprof after = fetch(jvm);
  for (size_t v : {contentions, delay}) {
    EXPECT_GT(delta.through(v, "WaitSplit.slowSite"), 0) << delta.raw;
    for (const char* site : {"WaitSplit.slowSite", "WaitSplit.fastSite"})
      EXPECT_EQ(delta.through(v, site), after.through(v, site) - before.through(v, site)) << site << "\n" << delta.raw;
  }
  EXPECT_NE(delta.raw.find("Duration: 8"), std::string::npos) << delta.raw;
}

}  // namespace
}  // namespace jvmsight::test
