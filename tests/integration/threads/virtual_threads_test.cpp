// Live virtual threads and their starts (JDK 21+) compared with the JDK's
// own view: the fixture's count and jcmd Thread.dump_to_file. Before 21:
// ThreadMetrics.AllSixStatesAlwaysPresentAndTypesRight.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/thread_truth.h"

namespace jvmsight::test {
namespace {

class VirtualThreads : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(VirtualThreads, all_jdks().from(21));

// The JDK's own count of its live virtual threads: jcmd Thread.dump_to_file
// lists each as '#<tid> "<name>" virtual' (JDK 21; 25 adds the state and a
// time); -1 if it failed.
long jcmd_virtual_threads(const Jdk& jdk, pid_t pid, const TempDir& dir) {
  const std::string file = dir.path("threads.txt");
  auto dumped = run({jdk.tool("jcmd"), std::to_string(pid), "Thread.dump_to_file", file});
  std::ifstream in(file);
  if (dumped.exit_code != 0 || !in) return -1;
  static const std::regex virtual_thread(R"(^#[0-9]+ ".*" virtual( .*)?$)");
  long n = 0;
  for (std::string line; std::getline(in, line);)
    if (std::regex_match(line, virtual_thread)) ++n;
  return n;
}

// Live virtual threads, those started through the Thread API and those of a
// thread-per-task executor (a container of its own), by default without
// JVM TI's virtual-thread support: equal to the fixture's own count and to
// the JDK's thread dump; and their starts, from the JVM's thread ids, the
// fixture's count of starts give or take two (VirtualThreadStarts: a
// thread the JVM makes for itself without a ThreadStart, a compiler
// thread, adds one; a platform thread made before the agent took its
// baseline and started after, as the fixture's carriers can be, takes one
// away).
TEST_P(VirtualThreads, LiveCountEqualsTheFixturesAndTheThreadDumps) {
  const Jdk& jdk = GetParam();
  AgentJvm jvm(jdk, "VirtualThreads", {"50", "30", "20"});
  ASSERT_GT(jvm.port, 0);
  auto truth = parse_report(*jvm.process->wait_for_line("VIRTUAL ", 1s));
  PromScrape s = jvm.scrape();
  EXPECT_EQ(s.value("jvmsight_virtual_threads_supported"), 1.0);
  EXPECT_EQ(s.value("jvmsight_virtual_threads_live"), truth["alive"]);
  EXPECT_EQ(jcmd_virtual_threads(jdk, jvm.process->pid(), jvm.dir), truth["alive"]);
  const double started = s.value("jvmsight_virtual_threads_started_total").value_or(-1);
  EXPECT_GE(started, truth["started"] - 2);
  EXPECT_LE(started, truth["started"] + 2);
}

TEST_P(VirtualThreads, StartsLeftOutWhenTurnedOff) {
  AgentJvm jvm(GetParam(), "VirtualThreads", {"50", "30", "20"}, "virtual_thread_starts=off");
  ASSERT_GT(jvm.port, 0);
  auto truth = parse_report(*jvm.process->wait_for_line("VIRTUAL ", 1s));
  PromScrape s = jvm.scrape();
  EXPECT_FALSE(s.value("jvmsight_virtual_threads_started_total"));
  EXPECT_EQ(s.value("jvmsight_virtual_threads_live"), truth["alive"]);
}

// Virtual threads started by the hundred thousand a second while one pins
// again and again. JDK 21 (where every thread-filterable event enabled costs
// each virtual thread's start): above virtual_thread_churn the monitor
// events and the pinning probes go on and off together (with contention=off,
// the probes alone), and the pinnings seen in the on phases, scaled,
// estimate the fixture's own count (within 0.5-2x). JDK 25 (no such cost):
// nothing cycles, every pinning counted.
// The bound is set low (20,000 a second) so that the cycles are short and
// an 8-second run has several on phases. Three carriers: with two, one
// pinned, JDK 21's scheduler started 1,000-300,000 a second from run to run.
// (On 25 a sleep inside synchronized no longer pins, JEP 491: there the
// check is that nothing cycles.)
void expect_pinnings_estimated_under_churn(const Jdk& jdk, const std::string& options) {
  constexpr int bound = 20'000;  // virtual_thread_churn: starts a second
  AgentJvm jvm(jdk, "VirtualPinning", {}, "virtual_thread_churn=" + std::to_string(bound) + options,
               {"-Djdk.virtualThreadScheduler.parallelism=3"});
  ASSERT_GT(jvm.port, 0);
  // Where nothing cycled, the fixture must have been fast enough to need
  // it: more than ten bounds' worth in the 8 s, so that at least one of the
  // agent's 1 s rate checks (at most ten overlap the run) saw more than the
  // bound. Quiet, 800,000 or more; beside the sanitizer suites, 227,000;
  // with the JDK 21 events never cycled (the cost itself), fewer. JDK 21's
  // scheduler sometimes stalls beside the pinned carrier, agent or none
  // (no agent: 556,000 in one run of eight, 35-44 million in the others),
  // so a run too slow to judge is run again, up to three times.
  std::map<std::string, long> truth;
  std::string line;
  double pinned = -1;
  bool cycled = false;
  for (size_t attempt = 0; attempt < 3; ++attempt) {
    const double before = jvm.scrape().value("jvmsight_virtual_thread_pinned_seconds_count").value_or(-1);
    ASSERT_GE(before, 0);
    jvm.process->send("churn 8 1");
    auto churned = jvm.process->wait_for_line("CHURNED ", 60s, attempt + 1);
    ASSERT_TRUE(churned) << jvm.process->err();
    line = *churned;
    truth = parse_report(line);
    ASSERT_GT(truth["pinned"], 1000) << line;
    pinned = jvm.scrape().value("jvmsight_virtual_thread_pinned_seconds_count").value_or(-1) - before;
    cycled = jvm.process->err().find("virtual threads start at about") != std::string::npos;
    if (cycled || truth["started"] > 10 * bound) break;
  }
  if (!cycled) {
    ASSERT_GT(truth["started"], 10 * bound) << "not fast enough to need cycling, three times: " << line;
  }
  if (jdk.feature == 21) {
    EXPECT_TRUE(cycled) << line << "\n" << jvm.process->err();
    EXPECT_GE(pinned, 0.5 * truth["pinned"]) << line;
    EXPECT_LE(pinned, 2.0 * truth["pinned"]) << line;
  } else {
    EXPECT_FALSE(cycled) << jvm.process->err();
  }
}

class VirtualChurnCycle : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(VirtualChurnCycle, all_jdks().from(21));

TEST_P(VirtualChurnCycle, PinningsEstimatedWhileVirtualThreadsStartFast) {
  expect_pinnings_estimated_under_churn(GetParam(), ",pinning=auto");
}

// contention=off leaves the breakpoints as the only such event: they cycle alone.
TEST_P(VirtualChurnCycle, PinningProbesCycleAloneWithContentionOff) {
  expect_pinnings_estimated_under_churn(GetParam(), ",pinning=auto,contention=off");
}

}  // namespace
}  // namespace jvmsight::test
