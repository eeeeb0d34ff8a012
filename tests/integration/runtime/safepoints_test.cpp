// The safepoint families against HotSpot's own counters as
// `jcmd <pid> PerfCounter.print` shows them, read just before and after
// the scrape, on every JDK: with the PerfData file the JVM maps; with
// -XX:+PerfDisableSharedMem (plain memory, as containers often set; jcmd
// then has no file, so the fixture runs jcmd's parser on itself); and
// absent, said once, with -XX:-UsePerfData.
#include <gtest/gtest.h>

#include <sstream>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

// HotSpot's counters by name, from PerfCounter.print's "name=value" lines.
std::map<std::string, double> perf_counters(const Jdk& jdk, pid_t pid) {
  Completed c = run({jdk.tool("jcmd"), std::to_string(pid), "PerfCounter.print"}, {{"JAVA_TOOL_OPTIONS", ""}});
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
  std::map<std::string, double> out;
  std::istringstream lines(c.out);
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos || line.rfind("sun.", 0) != 0) continue;
    try {
      out[line.substr(0, eq)] = std::stod(line.substr(eq + 1));
    } catch (const std::exception&) {  // a string constant
    }
  }
  return out;
}

// The three families as HotSpot's counters say they should read: stopped
// time from request to end (JDK 13+ counts the time to reach the safepoint
// apart from sun.rt.safepointTime: the sum).
std::map<std::string, double> expected(const Jdk& jdk, std::map<std::string, double> c) {
  const double hz = c.at("sun.os.hrt.frequency");
  const double stopped = c.at("sun.rt.safepointTime") + (jdk.feature >= 13 ? c.at("sun.rt.safepointSyncTime") : 0);
  return {{"jvmsight_safepoints_total", c.at("sun.rt.safepoints")},
          {"jvmsight_safepoint_seconds_total", stopped / hz},
          {"jvmsight_safepoint_sync_seconds_total", c.at("sun.rt.safepointSyncTime") / hz}};
}

// The same counters as the JDK's own PerfData parser (jvmstat's, what jcmd
// uses) reads them inside the fixture, from the JVM's own memory: with
// -XX:+PerfDisableSharedMem there is no file for jcmd to read.
std::map<std::string, double> in_process_counters(Process& fixture) {
  size_t before = 0;
  for (size_t n = 1; fixture.wait_for_line("PERF ", 0ms, n); ++n) before = n;
  fixture.send("perf");
  auto line = fixture.wait_for_line("PERF ", 30s, before + 1);
  EXPECT_TRUE(line) << fixture.err();
  std::map<std::string, double> out;
  for (const auto& [name, value] : parse_report(line.value_or("PERF"))) out[name] = static_cast<double>(value);
  return out;
}

// What the fixture needs to run jvmstat's parser on itself.
std::vector<std::string> jvmstat_access(const Jdk& jdk) {
  if (jdk.feature < 9) return {"-Xbootclasspath/a:" + jdk.home + "/lib/tools.jar"};
  return {"--add-modules=jdk.internal.jvmstat", "--add-exports=java.base/jdk.internal.perf=ALL-UNNAMED",
          "--add-exports=jdk.internal.jvmstat/sun.jvmstat.monitor=ALL-UNNAMED",
          "--add-exports=jdk.internal.jvmstat/sun.jvmstat.perfdata.monitor=ALL-UNNAMED",
          "--add-exports=jdk.internal.jvmstat/sun.jvmstat.perfdata.monitor.v2_0=ALL-UNNAMED"};
}

class Safepoints : public ::testing::TestWithParam<Jdk> {
 protected:
  // shared_memory: HotSpot's PerfData file exists (jcmd reads it), or
  // -XX:+PerfDisableSharedMem (the fixture reads its own memory).
  void expect_hotspots_counters(bool shared_memory) {
    std::vector<std::string> jvm_args;
    if (!shared_memory) {
      jvm_args = jvmstat_access(GetParam());
      jvm_args.push_back("-XX:+PerfDisableSharedMem");
    }
    AgentJvm jvm(GetParam(), "Safepoints", {}, "", jvm_args);
    ASSERT_GT(jvm.port, 0);
    auto counters = [&] {
      return expected(GetParam(), shared_memory ? perf_counters(GetParam(), jvm.process->pid())
                                                : in_process_counters(*jvm.process));
    };
    const double first = jvm.scrape().value("jvmsight_safepoints_total").value_or(-1);
    jvm.process->send("stop 25");
    ASSERT_TRUE(jvm.process->wait_for_line("STOPPED", 60s));
    auto before = counters();
    PromScrape s = jvm.scrape();
    auto after = counters();
    for (const auto& [family, low] : before) {
      const double v = s.value(family).value_or(-1);
      EXPECT_GE(v, low * (1 - 1e-12)) << family;  // the text's shortest round trip of a double
      EXPECT_LE(v, after.at(family) * (1 + 1e-12)) << family;
      EXPECT_EQ(s.type_of(family), "counter") << family;
    }
    EXPECT_GE(s.value("jvmsight_safepoints_total").value_or(-1), first + 25);
    EXPECT_GT(s.value("jvmsight_safepoint_seconds_total").value_or(-1), 0);
    // Stopped includes reaching: never less than it.
    EXPECT_GE(s.value("jvmsight_safepoint_seconds_total").value_or(-1),
              s.value("jvmsight_safepoint_sync_seconds_total").value_or(-1));
    // JNI reads internal classes without the illegal-access warnings reflection gets.
    EXPECT_EQ(jvm.process->err().find("WARNING"), std::string::npos) << jvm.process->err();
    EXPECT_EQ(jvm.process->err().find("jvmsight: warning"), std::string::npos) << jvm.process->err();
  }
};
JVMSIGHT_JDKS(Safepoints, all_jdks());

TEST_P(Safepoints, EqualHotSpotsOwnCountersAsJcmdShowsThem) { expect_hotspots_counters(true); }

TEST_P(Safepoints, EqualThemWithPerfDisableSharedMem) { expect_hotspots_counters(false); }

TEST_P(Safepoints, AbsentAndSaidOnceWithoutPerfData) {
  AgentJvm jvm(GetParam(), "Safepoints", {}, "", {"-XX:-UsePerfData"});
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("stop 3");
  ASSERT_TRUE(jvm.process->wait_for_line("STOPPED", 60s));
  PromScrape s = jvm.scrape();
  EXPECT_FALSE(s.value("jvmsight_safepoints_total"));
  EXPECT_FALSE(s.value("jvmsight_safepoint_seconds_total"));
  EXPECT_FALSE(s.value("jvmsight_safepoint_sync_seconds_total"));
  EXPECT_TRUE(s.value("jvm_threads_current"));  // the rest is served
  const std::string err = jvm.process->err();
  const std::string line = "safepoint metrics are off";
  ASSERT_NE(err.find(line), std::string::npos) << err;
  EXPECT_EQ(err.find(line, err.find(line) + 1), std::string::npos) << "said more than once: " << err;
  EXPECT_EQ(err.find("WARNING"), std::string::npos) << err;
}

}  // namespace
}  // namespace jvmsight::test
