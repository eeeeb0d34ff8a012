// JVM exit is never held up by the agent, even with scrapes in flight.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

class Exit : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(Exit, system_jdks());

TEST_P(Exit, CompletesPromptlyWithScrapesInFlight) {
  AgentJvm jvm(GetParam(), "ThreadStates", {"50", "50", "50", "50"});
  ASSERT_GT(jvm.port, 0);
  std::atomic<bool> stop{false};
  std::atomic<int> ok{0};
  std::vector<std::thread> scrapers;
  for (int i = 0; i < 4; ++i)
    scrapers.emplace_back([&] {
      while (!stop) ok += http_get(jvm.port, "/metrics", "127.0.0.1", 2s).status == 200;
    });
  while (ok < 8) std::this_thread::sleep_for(10ms);
  auto start = std::chrono::steady_clock::now();
  jvm.process->send("exit");
  auto status = jvm.process->wait(20s);
  auto took = std::chrono::steady_clock::now() - start;
  stop = true;
  for (auto& t : scrapers) t.join();
  ASSERT_TRUE(status) << "JVM did not exit";
  EXPECT_EQ(*status, 0) << jvm.process->err();
  // Stopping the HTTP server alone would take 1-2 s; a JVM this small exits
  // in well under that. The figures are in docs/BENCHMARKS.md.
  EXPECT_LT(took, 1500ms) << "exit took " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                          << " ms";
}

}  // namespace
}  // namespace jvmsight::test
