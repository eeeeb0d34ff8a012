// The thread pool families against the same JVM's ThreadMXBean, on every
// JDK: a Tomcat-like pool, an Executors pool and one whose threads burned a
// known amount of CPU (half of them ended since), states per pool exactly,
// CPU within 10% (on JDK 21 ended threads' last CPU only when asked for);
// and the cap with 200 distinct pools.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

// "key=value ..." with string keys such as "pool/STATE".
std::map<std::string, double> pairs(const std::string& line) {
  std::map<std::string, double> out;
  std::istringstream in(line.substr(line.find(' ') + 1));
  for (std::string item; in >> item;) {
    const size_t eq = item.rfind('=');
    out[item.substr(0, eq)] = std::stod(item.substr(eq + 1));
  }
  return out;
}

// Sends a fixture command and returns the answer: the next line with this prefix.
std::string ask(Process& fixture, const std::string& command, const std::string& prefix) {
  size_t before = 0;
  for (size_t n = 1; fixture.wait_for_line(prefix + " ", 0ms, n); ++n) before = n;
  fixture.send(command);
  auto line = fixture.wait_for_line(prefix + " ", 30s, before + 1);
  EXPECT_TRUE(line) << "no " << prefix << " line";
  return line ? *line : "";
}

// The agent's counts as "pool/STATE".
std::map<std::string, double> agent_states(const PromScrape& s) {
  std::map<std::string, double> out;
  for (const auto& sample : s.all("jvmsight_thread_pool_threads"))
    out[sample.labels.at("pool") + "/" + sample.labels.at("state")] = sample.value;
  return out;
}

class ThreadPools : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(ThreadPools, all_jdks());

// Where ThreadEnd would slow every virtual thread (JDK 21), the
// default leaves ended threads' last CPU out (ended_thread_cpu=auto).
bool thread_end_is_costly(const Jdk& jdk) { return jdk.feature == 21; }

// The burner pool's CPU as served once at least `at_least` seconds (or 30 s passed).
double served_burner_cpu(AgentJvm& jvm, double at_least) {
  double served = 0;
  for (auto until = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < until;) {
    served = jvm.scrape().value("jvmsight_thread_pool_cpu_seconds_total", {{"pool", "burner"}}).value_or(0);
    if (served >= at_least) break;
    std::this_thread::sleep_for(500ms);
  }
  return served;
}

// Waits for the first CPU reading, then makes the burners burn (two of them
// end right after) and returns ThreadMXBean's CPU line.
std::map<std::string, double> burn_after_first_reading(AgentJvm& jvm) {
  for (auto until = std::chrono::steady_clock::now() + 20s;
       !jvm.scrape().value("jvmsight_thread_pool_cpu_seconds_total", {{"pool", "burner"}});) {
    if (std::chrono::steady_clock::now() >= until) {
      ADD_FAILURE() << "no CPU reading";
      return {};
    }
    std::this_thread::sleep_for(200ms);
  }
  jvm.process->send("burn");
  EXPECT_TRUE(jvm.process->wait_for_line("BURNED", 60s));
  return pairs(ask(*jvm.process, "cpu", "CPU"));
}

TEST_P(ThreadPools, StatesEqualThreadMXBeansAndCpuIsWithinTenPercent) {
  AgentJvm jvm(GetParam(), "ThreadPools", {}, thread_end_is_costly(GetParam()) ? "ended_thread_cpu=on" : "");
  ASSERT_GT(jvm.port, 0);
  // States: ThreadMXBean just before and after the scrape; equal once both agree.
  std::map<std::string, double> truth, seen;
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto before = pairs(ask(*jvm.process, "pools", "POOLS"));
    PromScrape s = jvm.scrape();
    truth = pairs(ask(*jvm.process, "pools", "POOLS"));
    if (before != truth) continue;
    seen = agent_states(s);
    // Every thread in exactly one pool: the pools add up to jvm_threads_state.
    double pooled = 0, states = 0;
    for (const auto& [key, n] : seen) pooled += n;
    for (const auto& sample : s.all("jvm_threads_state")) states += sample.value;
    EXPECT_EQ(pooled, states);
    break;
  }
  ASSERT_FALSE(truth.empty());
  ASSERT_FALSE(seen.empty()) << "ThreadMXBean never gave the same states twice in a row";
  for (const auto& [key, n] : truth) EXPECT_EQ(seen[key], n) << key;
  EXPECT_EQ(seen["http-nio-8080-exec/BLOCKED"], 1);
  EXPECT_EQ(seen.count("other/RUNNABLE"), 0u) << "a handful of pools stays under the cap";

  // CPU: the background reading within 10% of ThreadMXBean's. The burners
  // burn once a first reading was served (so they were listed and read
  // before), and two of them end at once: the next reading (at least 5 s
  // later) cannot read those, so their CPU is what their ThreadEnd said.
  const auto cpu = burn_after_first_reading(jvm);
  ASSERT_TRUE(cpu.count("burner"));
  const double burned = cpu.at("burner") / 1e9;
  ASSERT_GE(burned, 1.2);
  const double served = served_burner_cpu(jvm, 0.9 * burned);
  EXPECT_NEAR(served, burned, 0.1 * burned) << "burner pool, ThreadMXBean says " << burned << " s";
  PromScrape s = jvm.scrape();
  EXPECT_LE(s.value("jvmsight_thread_pool_cpu_seconds_total", {{"pool", "http-nio-8080-exec"}}).value_or(-1),
            cpu.at("http-nio-8080-exec") / 1e9 + 0.05);
  EXPECT_EQ(s.type_of("jvmsight_thread_pool_cpu_seconds_total"), "counter");
  EXPECT_LE(s.value("jvmsight_thread_pool_cpu_age_seconds").value_or(99), 20);
}

// JDK 21 by default: no ThreadEnd, so the two ended burners count with
// what the last reading before their end saw (at most what the pool gained
// during the burn), not their 600 ms; the log says why, once.
TEST_P(ThreadPools, EndedThreadsLastCpuLeftOutByDefaultWhereThreadEndIsCostly) {
  if (!thread_end_is_costly(GetParam())) GTEST_SKIP() << "ThreadEnd is cheap here: the test above keeps its CPU";
  AgentJvm jvm(GetParam(), "ThreadPools");
  ASSERT_GT(jvm.port, 0);
  const double before = jvm.scrape().value("jvmsight_thread_pool_cpu_seconds_total", {{"pool", "burner"}}).value_or(0);
  const auto cpu = burn_after_first_reading(jvm);
  ASSERT_TRUE(cpu.count("burner"));
  // A reading may have fallen inside the burn: what it credited the pool bounds what the ended ones keep.
  const double during =
      jvm.scrape().value("jvmsight_thread_pool_cpu_seconds_total", {{"pool", "burner"}}).value_or(0) - before;
  const double burned = cpu.at("burner") / 1e9, ended = cpu.at("burner_ended") / 1e9, live = burned - ended;
  ASSERT_GE(ended, 0.55);
  const double served = served_burner_cpu(jvm, 0.9 * live);
  EXPECT_GE(served, 0.9 * live);
  EXPECT_LE(served, 1.1 * live + during) << "ended threads' CPU kept without ThreadEnd? ThreadMXBean: live " << live
                                         << " s, ended " << ended << " s";
  EXPECT_NE(jvm.process->err().find("ended_thread_cpu=on keeps it"), std::string::npos) << jvm.process->err();
}

// 200 more pools than the default cap's 50: 50 labels and "other", every
// thread still counted once.
TEST_P(ThreadPools, TheCapHoldsWith200DistinctPools) {
  AgentJvm jvm(GetParam(), "ThreadPools");
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("burn");  // burner: by far the busiest pool
  ASSERT_TRUE(jvm.process->wait_for_line("BURNED", 60s));
  jvm.process->send("spread 200");
  ASSERT_TRUE(jvm.process->wait_for_line("SPREAD", 60s));
  const auto spread = std::chrono::steady_clock::now();
  PromScrape s = jvm.scrape();
  // After a background reading that ended since the spread: labels by CPU.
  // Before it, pools take free labels in the order they are first listed
  // (the JVM lists the newest threads first).
  auto read_since_spread = [&] {
    const std::chrono::duration<double> since = std::chrono::steady_clock::now() - spread;
    return s.value("jvmsight_thread_pool_cpu_seconds_total", {{"pool", "other"}}) &&
           s.value("jvmsight_thread_pool_cpu_age_seconds").value_or(1e9) < since.count();
  };
  for (auto until = spread + 20s; !read_since_spread() && std::chrono::steady_clock::now() < until; s = jvm.scrape())
    std::this_thread::sleep_for(300ms);
  std::set<std::string> pools, cpu_pools;
  double pooled = 0, states = 0;
  for (const auto& sample : s.all("jvmsight_thread_pool_threads")) {
    pools.insert(sample.labels.at("pool"));
    pooled += sample.value;
  }
  for (const auto& sample : s.all("jvmsight_thread_pool_cpu_seconds_total")) cpu_pools.insert(sample.labels.at("pool"));
  for (const auto& sample : s.all("jvm_threads_state")) states += sample.value;
  EXPECT_EQ(pools.size(), 51u);
  EXPECT_TRUE(pools.count("other"));
  EXPECT_TRUE(pools.count("burner")) << "the busiest pool keeps its label";
  EXPECT_LE(cpu_pools.size(), 51u);
  EXPECT_TRUE(cpu_pools.count("other"));
  EXPECT_EQ(pooled, states);
  EXPECT_GE(s.value("jvmsight_thread_pool_threads", {{"pool", "other"}, {"state", "WAITING"}}).value_or(0), 150);
}

// thread_pools=0: no pool families at all (and no names or CPU read). An
// option's effect, the same on every JDK: on this machine's first.
TEST(ThreadPoolsOption, OffWhenTheCapIsZero) {
  AgentJvm jvm(system_jdks().list().front(), "ThreadPools", {}, "thread_pools=0");
  ASSERT_GT(jvm.port, 0);
  PromScrape s = jvm.scrape();
  EXPECT_TRUE(s.all("jvmsight_thread_pool_threads").empty());
  EXPECT_TRUE(s.all("jvmsight_thread_pool_cpu_seconds_total").empty());
  EXPECT_TRUE(s.value("jvm_threads_current"));
}

}  // namespace
}  // namespace jvmsight::test
