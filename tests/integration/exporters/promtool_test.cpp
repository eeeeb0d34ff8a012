// A real scrape passes Prometheus' own linter.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

class Promtool : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(Promtool, system_jdks());

TEST_P(Promtool, CheckMetricsPassesOnARealScrape) {
  const char* promtool = "/usr/bin/promtool";
  ASSERT_EQ(access(promtool, X_OK), 0)
      << "promtool missing: install Debian's prometheus package (the test command does)";
  AgentJvm jvm(GetParam(), "ThreadStates");
  ASSERT_GT(jvm.port, 0);
  auto r = jvm.get("/metrics");
  ASSERT_EQ(r.status, 200);
  std::string file = jvm.dir.path("scrape.txt");
  std::ofstream(file) << r.body;
  auto check = run({"/bin/sh", "-c", std::string(promtool) + " check metrics < '" + file + "'"});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err << "\n--- scrape ---\n" << r.body;
  EXPECT_EQ(check.out + check.err, "") << "promtool lint findings";
}

}  // namespace
}  // namespace jvmsight::test
