// The lock scan past its budgets: more distinct locks than it reads in one
// check still find the cycle and count every waiter; queues served from the
// background follow changes within their age.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/lock_graph/deadlock_truth.h"

namespace jvmsight::test {
namespace {

class LockScanBudgets : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(LockScanBudgets, system_jdks());

// What the agent serves from the background is never older than twice its
// refresh interval: a second, or 200 times the CPU the work last cost.
double served_age_bound(const PromScrape& s, const std::string& cost_family) {
  return 2 * std::max(1.0, 200 * s.value(cost_family).value_or(0));
}

// More distinct locks than any budget of the scan (32 monitor lookups, 64
// handshakes a scrape, 64 j.u.c. locks grouped in Java): the background
// check still finds the cycle whose threads come last, and the scrape
// still counts every waiting thread as ThreadMXBean does.
TEST_P(LockScanBudgets, OverflowFindsTheCycleAndCountsEveryWaiter) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"many"});
  ASSERT_GT(jvm.port, 0);
  auto line = jvm.process->wait_for_line("DEADLOCKED ", 60s);
  ASSERT_TRUE(line) << jvm.process->err();
  Truth truth = parse_truth(*line);
  EXPECT_EQ(truth.names, (std::set<std::string>{"dl-a", "dl-b"}));
  ASSERT_TRUE(wait_for_stderr(*jvm.process, "deadlock detected", 10s)) << jvm.process->err();
  EXPECT_EQ(report_deadlocked(jvm.process->err()), truth.names);
  jvm.process->send("queues");
  auto queues = jvm.process->wait_for_line("QUEUES ", 30s);
  ASSERT_TRUE(queues);
  auto q = parse_report(*queues);
  EXPECT_EQ(q["blocked"], 82);  // 80 + the cycle's 2
  const std::string rl = "java.util.concurrent.locks.ReentrantLock$NonfairSync";
  EXPECT_EQ(q["parked." + rl], 70);
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvm_threads_deadlocked"), truth.all);
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}), q["blocked"]);
  EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "juc"}}), q["parked." + rl]);
  EXPECT_EQ(s.value("jvmsight_juc_parked_threads", {{"lock_class", rl}}), q["parked." + rl]);
  // Holders listed are real ones, each with its one waiter.
  auto holders = s.all("jvmsight_lock_queue_length");
  EXPECT_EQ(holders.size(), 10u);
  for (const auto& h : holders) EXPECT_EQ(h.value, q[h.labels.at("holder")]) << h.labels.at("holder");
}

// The queue families are gathered in the background while someone scrapes
// and served with their age, bounded: a change shows within the bound.
TEST_P(LockScanBudgets, QueuesServedFromTheBackgroundFollowChangesWithinTheirAge) {
  AgentJvm jvm(GetParam(), "Deadlocks", {"pool"});
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(jvm.process->wait_for_line("DEADLOCKED ", 30s));
  PromScrape first = jvm.scrape();
  double monitor = first.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}).value_or(-1);
  EXPECT_EQ(monitor, 30.0);
  double oldest = 0;
  for (int round = 1; round <= 3; ++round) {
    jvm.process->send("more");
    ASSERT_TRUE(jvm.process->wait_for_line("MORE", 30s, static_cast<size_t>(round)));
    jvm.process->send("queues");
    auto line = jvm.process->wait_for_line("QUEUES ", 30s, static_cast<size_t>(round));
    ASSERT_TRUE(line);
    auto q = parse_report(*line);
    // Longer than the bound (2 s for a scan under 5 ms of CPU; twice 200
    // times its cost above): what is served was gathered since.
    auto changed = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(2500ms);
    PromScrape s = jvm.scrape();
    double bound = served_age_bound(s, "jvmsight_lock_queue_refresh_seconds");
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - changed).count() <= bound) {
      std::this_thread::sleep_for(std::chrono::duration<double>(bound));
      s = jvm.scrape();
      bound = served_age_bound(s, "jvmsight_lock_queue_refresh_seconds");
    }
    double age = s.value("jvmsight_lock_queue_age_seconds").value_or(-1);
    EXPECT_GE(age, 0);
    EXPECT_LE(age, bound) << "served older than its bound";
    oldest = std::max(oldest, age);
    EXPECT_EQ(s.value("jvmsight_lock_waiting_threads", {{"kind", "monitor"}}), q["blocked"]) << "round " << round;
    EXPECT_EQ(q["blocked"], 30 + 5 * round);
    bool listed = false;
    for (const auto& h : s.all("jvmsight_lock_queue_length"))
      if (h.labels.at("holder") == "more-holder-" + std::to_string(round - 1)) listed = h.value == 5;
    EXPECT_TRUE(listed) << "the new holder with its 5 waiters, round " << round;
    EXPECT_GT(s.value("jvmsight_lock_queue_refresh_seconds").value_or(-1), 0);
  }
  // A scan at scrape time is microseconds old: at least one came from the background.
  EXPECT_GT(oldest, 0.001);
}

}  // namespace
}  // namespace jvmsight::test
