// Threads stuck on a lock against the JVM's own view: tests/java/StuckThreads.java
// prints when ThreadMXBean first shows each stuck waiter waiting (and, for a
// virtual thread, when the lock's own queue holds it), and the state of each
// thread that only looks idle. Storm threads wait again and again, never long.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Waiter name -> wall-clock ms when the JVM first showed it waiting.
std::map<std::string, long long> waiting_since(const std::string& out) {
  std::map<std::string, long long> since;
  std::stringstream ss(out);
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind("WAITING ", 0) != 0) continue;
    std::string name = line.substr(line.find("name=") + 5);
    name = name.substr(0, name.find(' '));
    since[name] = std::stoll(line.substr(line.find("at_ms=") + 6));
  }
  return since;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

class StuckThreads : public ::testing::TestWithParam<Jdk> {};

TEST_P(StuckThreads, WaitersPastTheThresholdCountAndNothingElse) {
  const Jdk& jdk = GetParam();
  const bool virtual_threads = jdk.feature >= 21;
  AgentJvm jvm(jdk, "StuckThreads", virtual_threads ? std::vector<std::string>{"virtual"} : std::vector<std::string>{},
               "stuck_threshold_ms=2000");
  ASSERT_GT(jvm.port, 0);
  auto since = waiting_since(jvm.process->out());
  ASSERT_EQ(since.size(), virtual_threads ? 3u : 2u) << jvm.process->out();
  const double juc = virtual_threads ? 2 : 1;

  std::optional<double> monitor, parked;
  for (auto until = std::chrono::steady_clock::now() + 15s; std::chrono::steady_clock::now() < until;) {
    PromScrape s = jvm.scrape();
    monitor = s.value("jvmsight_threads_stuck", {{"kind", "monitor"}});
    parked = s.value("jvmsight_threads_stuck", {{"kind", "juc"}});
    if (monitor == 1.0 && parked == juc) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_EQ(monitor, 1.0) << jvm.process->err();
  ASSERT_EQ(parked, juc) << jvm.process->err();
  long long first = now_ms();
  for (const auto& [name, at] : since) first = std::min(first, at);
  // Stays so: the idle lookalikes and the storms never count.
  for (int i = 0; i < 5; ++i) {
    std::this_thread::sleep_for(400ms);
    PromScrape s = jvm.scrape();
    EXPECT_EQ(s.value("jvmsight_threads_stuck", {{"kind", "monitor"}}), 1.0);
    EXPECT_EQ(s.value("jvmsight_threads_stuck", {{"kind", "juc"}}), juc);
    const double longest = s.value("jvmsight_threads_stuck_max_seconds").value_or(-1);
    EXPECT_GE(longest, 2.0);
    EXPECT_LE(longest, static_cast<double>(now_ms() - first) / 1000 + 0.1);
  }

  // Each once on stderr: the thread, the lock, its owner, both stacks.
  const std::string err = jvm.process->err();
  EXPECT_EQ(count_of(err, "thread stuck on a lock: "), since.size()) << err;
  EXPECT_EQ(count_of(err, "thread stuck on a lock: thread \"waiter-m\""), 1u);
  EXPECT_NE(err.find("to lock monitor <"), std::string::npos);
  EXPECT_NE(err.find("(a StuckThreads$Ledger), held by \"holder-m\""), std::string::npos) << err;
  EXPECT_NE(err.find("(a java.util.concurrent.locks.ReentrantLock$NonfairSync), held by \"holder-j\""),
            std::string::npos);
  EXPECT_NE(err.find("at StuckThreads.awaitRelease(StuckThreads.java:"), std::string::npos);  // the owner's stack
  EXPECT_NE(err.find("at StuckThreads.lambda$main$"), std::string::npos);                     // the waiter's
  for (const char* idle : {"\"idle-", "\"storm-"})
    EXPECT_EQ(err.find(std::string("thread stuck on a lock: thread ") + idle), std::string::npos) << idle;

  // Released: 0 from the first check that starts afterwards (a scrape runs
  // between checks on the agent thread, so the check after this scrape's
  // count started after the release).
  jvm.process->send("release");
  ASSERT_TRUE(jvm.process->wait_for_line("RELEASED ", 30s));
  const double checked = jvm.scrape().value("jvmsight_deadlock_checks_total").value_or(0);
  PromScrape after("");
  for (auto until = std::chrono::steady_clock::now() + 5s; std::chrono::steady_clock::now() < until;) {
    after = jvm.scrape();
    if (after.value("jvmsight_deadlock_checks_total").value_or(0) >= checked + 1) break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(after.value("jvmsight_threads_stuck", {{"kind", "monitor"}}), 0.0);
  EXPECT_EQ(after.value("jvmsight_threads_stuck", {{"kind", "juc"}}), 0.0);
  EXPECT_EQ(after.value("jvmsight_threads_stuck_max_seconds"), 0.0);
}

JVMSIGHT_JDKS(StuckThreads, all_jdks());

}  // namespace
}  // namespace jvmsight::test
