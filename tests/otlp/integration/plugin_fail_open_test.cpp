// OTLP configured, but the plugin next to libjvmsight.so is missing or of
// another interface version: one clear line, nothing OTLP mapped beyond
// it, and /metrics keeps working.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "exporters/otlp/otlp_abi.h"
#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"
#include "tests/harness/prometheus_text.h"

namespace jvmsight::test {
namespace {

namespace fs = std::filesystem;

// Starts Idle with a copy of libjvmsight.so in `dir` (and whatever else the
// test put there), OTLP pointed at a port nobody listens on.
std::unique_ptr<Process> start_with_agent_in(const TempDir& dir, int& port) {
  fs::copy_file(agent_path(), dir.path("libjvmsight.so"), fs::copy_options::overwrite_existing);
  std::vector<std::string> args{"-agentpath:" + dir.path("libjvmsight.so") +
                                "=port=0,host=127.0.0.1,portfile=" + dir.path("port")};
  std::map<std::string, std::string> env{{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9"},
                                         {"OTEL_SDK_DISABLED", ""}};
  auto p = std::make_unique<Process>(java_command(system_jdks().list().front(), args, "Idle"), env);
  if (!p->wait_for_line("READY", 60s)) return p;
  port = read_portfile(dir.path("port"), 30s).value_or(0);
  return p;
}

void expect_metrics_served(int port) {
  ASSERT_GT(port, 0);
  PromScrape s(http_get(port, "/metrics").body);
  EXPECT_TRUE(s.value("jvm_threads_current").has_value());
  EXPECT_FALSE(s.value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "sent"}}).has_value());
}

TEST(OtlpPluginFailOpen, MissingPluginLeavesMetricsWorking) {
  TempDir dir;
  int port = 0;
  auto jvm = start_with_agent_in(dir, port);
  expect_metrics_served(port);
  const std::string err = jvm->err();
  EXPECT_NE(err.find("libjvmsight-otlp.so cannot be loaded"), std::string::npos) << err;
}

TEST(OtlpPluginFailOpen, OldInterfaceVersionIsRefused) {
  TempDir dir;
  fs::copy_file(JVMSIGHT_OLD_ABI_PLUGIN, dir.path("libjvmsight-otlp.so"));
  int port = 0;
  auto jvm = start_with_agent_in(dir, port);
  expect_metrics_served(port);
  const std::string err = jvm->err();
  EXPECT_NE(err.find("has interface version 1, this agent needs " + std::to_string(JVMSIGHT_OTLP_ABI_VERSION)),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace jvmsight::test
