// Loaded later with jcmd JVMTI.agent_load: GC events are granted in the live
// phase too, and pauses after the attach are all measured and attributed.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/gc/gc_pauses.h"

namespace jvmsight::test {
namespace {

class GcAttach : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(GcAttach, system_jdks());

TEST_P(GcAttach, PausesMeasuredAfterJcmdAgentLoad) {
  const Jdk& jdk = GetParam();
  TempDir dir;
  std::vector<std::string> jvm_args{"-XX:+UseSerialGC", "-Xmx256m"};
  if (jdk.feature >= 21) jvm_args.push_back("-XX:+EnableDynamicAgentLoading");  // no warning on stderr
  Process jvm(java_command(jdk, jvm_args, "GcChurn"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  // jcmd splits its arguments at commas unless the options are quoted.
  auto loaded = run({jdk.tool("jcmd"), std::to_string(jvm.pid()), "JVMTI.agent_load", agent_path(),
                     "\"port=0,host=127.0.0.1,portfile=" + dir.path("port") + "\""});
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out << loaded.err;
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << jvm.err();
  auto scrape = [&] { return PromScrape(http_get(*port, "/metrics").body); };
  ASSERT_EQ(scrape().value("jvmsight_gc_pause_events_supported"), 1.0);
  EXPECT_EQ(scrape().value("jvmsight_gc_notifications_enabled"), 1.0);
  Beans before;
  {
    jvm.send("gc");
    before = parse_beans(jvm.wait_for_line("GC ", 10s).value_or(""));
  }
  jvm.send("churn 3 300");
  ASSERT_TRUE(jvm.wait_for_line("CHURNED", 60s));
  Beans after;
  AgentGc seen;
  long want = 0;
  for (int attempt = 0; attempt < 30; ++attempt) {
    jvm.send("gc");
    after = parse_beans(jvm.wait_for_line("GC ", 10s, static_cast<size_t>(attempt) + 2).value_or(""));
    seen = agent_view(scrape());
    want = 0;
    for (const auto& [name, b] : after) want += b.count - before[name].count;
    if (seen.total_pauses == want && seen.pauses.count("unknown") == 0) break;
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_GE(want, 3);
  EXPECT_EQ(seen.total_pauses, want) << "pauses since the attach vs the beans' growth";
  EXPECT_EQ(seen.pauses.count("unknown"), 0u);
  EXPECT_EQ(seen.collections, after);
}

}  // namespace
}  // namespace jvmsight::test
