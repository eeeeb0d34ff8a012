// The client_java runtime and process families against the same JVM's own
// MXBeans (RuntimeTruth) and /proc, on every JDK; the name generations,
// constant labels and the landing page as a user sees them.
#include <dirent.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

using namespace std::chrono_literals;

// utime + stime of a process, in seconds, from /proc/<pid>/stat.
double proc_cpu_seconds(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), {});
  std::istringstream rest(stat.substr(stat.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i)
    if (i == 14 || i == 15) ticks += std::stod(field);
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

size_t proc_open_fds(pid_t pid) {
  size_t n = 0;
  if (DIR* d = opendir(("/proc/" + std::to_string(pid) + "/fd").c_str())) {
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') ++n;
    closedir(d);
  }
  return n;
}

std::map<std::string, std::string> props_of(const std::string& line) {
  std::map<std::string, std::string> out;
  std::istringstream in(line.substr(std::string("PROPS ").size()));
  for (std::string item; std::getline(in, item, '\t');) {
    size_t eq = item.find('=');
    if (eq != std::string::npos) out[item.substr(0, eq)] = item.substr(eq + 1);
  }
  return out;
}

// The MXBean (JDK 17: times()) and /proc count clock ticks of utime and
// stime, which the kernel scales from the exact runtime the agent reads:
// they trail it by up to a few ticks.
constexpr double cpu_ticks = 0.03;

class RuntimeMetrics : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(RuntimeMetrics, system_jdks());

// process_cpu_seconds_total costs the kernel a sum over every thread, so it
// is read in the background while someone scrapes and served with its age,
// at most 2 s old for a read this cheap. A value read before a report the
// JVM gave cannot be below it; one served past its bound would be.
TEST_P(RuntimeMetrics, ProcessCpuIsServedFromTheBackground) {
  AgentJvm jvm(GetParam(), "RuntimeTruth");
  ASSERT_GT(jvm.port, 0);
  jvm.scrape();
  jvm.report("RUNTIME");  // loads the management classes: the next reports are quick
  PromScrape first = jvm.scrape();
  double first_cpu = first.value("process_cpu_seconds_total").value_or(-1);
  ASSERT_GT(first_cpu, 0);
  double oldest = 0;
  for (int round = 0; round < 3; ++round) {
    auto before = parse_report(jvm.report("RUNTIME"));
    double proc_before = proc_cpu_seconds(jvm.process->pid());
    std::this_thread::sleep_for(2500ms);  // longer than the bound: what is served was read since
    PromScrape s = jvm.scrape();
    auto after = parse_report(jvm.report("RUNTIME"));
    double proc_after = proc_cpu_seconds(jvm.process->pid());
    double cpu = s.value("process_cpu_seconds_total").value_or(-1);
    double age = s.value("jvmsight_process_cpu_age_seconds").value_or(-1);
    // Twice the refresh interval: a second, or 200 times what the read cost.
    double bound = 2 * std::max(1.0, 200 * s.value("jvmsight_process_cpu_refresh_seconds").value_or(0));
    ASSERT_LT(bound, 2.5) << "a read this cheap (few threads) is redone every second";
    EXPECT_GE(age, 0);
    EXPECT_LE(age, bound) << "served older than its bound";
    oldest = std::max(oldest, age);
    EXPECT_GE(cpu, before["cpu_ns"] / 1e9 - cpu_ticks) << "round " << round;
    EXPECT_LE(cpu, after["cpu_ns"] / 1e9 + cpu_ticks) << "round " << round;
    EXPECT_GE(cpu, proc_before - cpu_ticks) << "/proc, round " << round;
    EXPECT_LE(cpu, proc_after + cpu_ticks) << "/proc, round " << round;
    EXPECT_GE(cpu, first_cpu);
    EXPECT_GT(s.value("jvmsight_process_cpu_refresh_seconds").value_or(-1), 0);
  }
  // A read at scrape time is microseconds old: at least one came from the background.
  EXPECT_GT(oldest, 0.001);
}

TEST_P(RuntimeMetrics, MatchTheJvmsOwnMxBeansAndProc) {
  AgentJvm jvm(GetParam(), "RuntimeTruth");
  ASSERT_GT(jvm.port, 0);
  jvm.scrape();  // the first scrape and report load the management classes
  jvm.report("RUNTIME");
  // Read the JVM, scrape, read again: the agent's values lie between.
  bool compared = false;
  for (int attempt = 0; attempt < 5 && !compared; ++attempt) {
    auto r1 = parse_report(jvm.report("RUNTIME"));
    PromScrape s = jvm.scrape();
    auto r2 = parse_report(jvm.report("RUNTIME"));
    double cpu_after = proc_cpu_seconds(jvm.process->pid());
    if (r1["classes_loaded"] != r2["classes_loaded"] || r2["heap_used"] < r1["heap_used"]) continue;  // a GC
    compared = true;
    EXPECT_EQ(s.value("jvm_classes_currently_loaded"), r1["classes_loaded"]);
    EXPECT_EQ(s.value("jvm_classes_loaded_total"), r1["classes_total"]);
    EXPECT_EQ(s.value("jvm_classes_unloaded_total"), r1["classes_unloaded"]);
    double heap = s.value("jvm_memory_bytes_used", {{"area", "heap"}}).value_or(-1);
    EXPECT_GE(heap, r1["heap_used"]);
    EXPECT_LE(heap, r2["heap_used"]);
    EXPECT_EQ(s.value("jvm_memory_used_bytes", {{"area", "heap"}}), heap);
    double compile = s.value("jvm_compilation_time_seconds_total").value_or(-1);
    EXPECT_GE(compile, r1["compile_ms"] / 1000.0);
    EXPECT_LE(compile, r2["compile_ms"] / 1000.0);
    // Read up to two seconds earlier (ProcessCpuIsServedFromTheBackground
    // checks how much): never ahead of the JVM's own count.
    double cpu = s.value("process_cpu_seconds_total").value_or(-1);
    EXPECT_GT(cpu, 0);
    EXPECT_LE(cpu, r2["cpu_ns"] / 1e9 + cpu_ticks);
    EXPECT_LE(cpu, cpu_after + cpu_ticks) << "/proc";
    EXPECT_EQ(s.value("jvm_buffer_pool_used_buffers", {{"pool", "direct"}}), r1["direct_count"]);
    EXPECT_EQ(s.value("jvm_buffer_pool_capacity_bytes", {{"pool", "direct"}}), r1["direct_capacity"]);
    EXPECT_GE(r1["direct_capacity"], 3 << 20);
    EXPECT_EQ(s.all("jvm_memory_pool_used_bytes").size(), static_cast<size_t>(r1["pools"]));
    EXPECT_EQ(s.all("jvm_memory_pool_bytes_used").size(), static_cast<size_t>(r1["pools"]));
    EXPECT_NEAR(s.value("process_start_time_seconds").value_or(0), r1["start_ms"] / 1000.0, 2.0);
    double fds = s.value("process_open_fds").value_or(-1);
    EXPECT_NEAR(fds, static_cast<double>(proc_open_fds(jvm.process->pid())), 3);
    EXPECT_GT(s.value("process_resident_memory_bytes").value_or(0), 16 << 20);
    // Read with the process CPU time, in the background: the JVM's own answer.
    EXPECT_EQ(s.value("jvmsight_available_processors"), r1["processors"]);
    double recent = s.value("jvmsight_cpu_recent_utilization_ratio").value_or(0);
    EXPECT_GE(recent, 0);
    EXPECT_LE(recent, 1);
  }
  ASSERT_TRUE(compared) << "the JVM never held still for two reads";

  auto props = props_of(*jvm.process->wait_for_line("PROPS ", 5s));
  PromScrape s = jvm.scrape();
  for (const char* info : {"jvm_info", "jvm_runtime_info"}) {
    EXPECT_EQ(
        s.value(info, {{"version", props["version"]}, {"vendor", props["vendor"]}, {"runtime", props["runtime"]}}), 1.0)
        << info;
  }
}

// Counted from GC notifications, as client_java does: after the fixture
// allocates and collects, eden's counter holds at least what it allocated.
TEST_P(RuntimeMetrics, PoolAllocationFollowsWhatTheJvmAllocated) {
  AgentJvm jvm(GetParam(), "RuntimeTruth", {}, "", {"-XX:+UseSerialGC"});
  ASSERT_GT(jvm.port, 0);
  auto eden = [&] {
    double sum = 0;
    for (const auto& s : jvm.scrape().all("jvm_memory_pool_allocated_bytes_total"))
      if (s.labels.at("pool").find("Eden") != std::string::npos) sum += s.value;
    return sum;
  };
  double before = eden();
  jvm.process->send("churn 256");
  auto line = jvm.process->wait_for_line("CHURNED ", 60s);
  ASSERT_TRUE(line);
  double allocated = static_cast<double>(parse_report(*line)["allocated"]);
  ASSERT_GE(allocated, 256.0 * (1 << 20));
  double after = before;
  for (int i = 0; i < 40 && after - before < 0.95 * allocated; ++i) {
    std::this_thread::sleep_for(100ms);  // the agent drains notifications every 250 ms
    after = eden();
  }
  EXPECT_GE(after - before, 0.95 * allocated) << "eden allocation below what the thread allocated";
  EXPECT_LE(after - before, allocated + 64.0 * (1 << 20)) << "far above what the JVM allocated";
  EXPECT_EQ(jvm.scrape().type_of("jvm_memory_pool_allocated_bytes_total"), "counter");
}

TEST_P(RuntimeMetrics, OneNameGenerationOrNoneOnRequest) {
  AgentJvm v0(GetParam(), "RuntimeTruth", {}, "client_java_names=0.x");
  AgentJvm v1(GetParam(), "RuntimeTruth", {}, "client_java_names=1.x");
  AgentJvm off(GetParam(), "RuntimeTruth", {}, "client_java_names=off");
  ASSERT_TRUE(v0.port > 0 && v1.port > 0 && off.port > 0);
  PromScrape s0 = v0.scrape(), s1 = v1.scrape(), soff = off.scrape();
  EXPECT_TRUE(s0.value("jvm_memory_bytes_used", {{"area", "heap"}}));
  EXPECT_TRUE(s0.value("jvm_info", {}));
  EXPECT_FALSE(s0.value("jvm_memory_used_bytes", {{"area", "heap"}}));
  EXPECT_FALSE(s0.value("jvm_runtime_info", {}));
  EXPECT_TRUE(s1.value("jvm_memory_used_bytes", {{"area", "heap"}}));
  EXPECT_TRUE(s1.value("jvm_runtime_info", {}));
  EXPECT_FALSE(s1.value("jvm_memory_pool_bytes_used", {{"pool", "Metaspace"}}));
  EXPECT_FALSE(s1.value("jvm_info", {}));
  for (const PromScrape* s : {&s0, &s1}) EXPECT_TRUE(s->value("process_cpu_seconds_total"));
  // off: what client_java would serve itself is left to it.
  for (const char* name : {"jvm_threads_current", "jvm_threads_state", "jvm_gc_collection_seconds_count",
                           "process_cpu_seconds_total", "jvm_info", "jvm_runtime_info", "jvm_classes_loaded_total"})
    EXPECT_TRUE(soff.all(name).empty()) << name;
  EXPECT_TRUE(soff.value("jvmsight_build_info", {}));
  EXPECT_FALSE(soff.all("jvmsight_threads_substate").empty());
}

TEST_P(RuntimeMetrics, ConstantLabelsOnEverySampleAndALandingPage) {
  AgentJvm jvm(GetParam(), "RuntimeTruth", {}, "label.env=prod,label.team=pay ments");
  ASSERT_GT(jvm.port, 0);
  HttpResult r = jvm.get("/metrics");
  ASSERT_EQ(r.status, 200);
  size_t samples = 0;
  std::istringstream lines(r.body);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    ++samples;
    EXPECT_NE(line.find("env=\"prod\""), std::string::npos) << line;
    EXPECT_NE(line.find("team=\"pay ments\""), std::string::npos) << line;
  }
  EXPECT_GT(samples, 50u);
  HttpResult home = jvm.get("/");
  EXPECT_EQ(home.status, 200);
  EXPECT_NE(home.headers.find("text/html"), std::string::npos);
  for (const char* path : {"/metrics", "/threads", "/deadlocks", "/gc"})
    EXPECT_NE(home.body.find(std::string("href=\"") + path + "\""), std::string::npos) << path;
}

}  // namespace
}  // namespace jvmsight::test
