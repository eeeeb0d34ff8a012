// GC pauses measured by the agent (JVM TI) against what the same JVM's
// GarbageCollectorMXBeans say, for every collector each JDK offers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

struct Bean {
  long count = 0;
  long time_ms = 0;
  bool operator==(const Bean& o) const { return count == o.count && time_ms == o.time_ms; }
};
using Beans = std::map<std::string, Bean>;

bool is_cycle_bean(const std::string& name) {
  return name.size() > 7 && name.compare(name.size() - 7, 7, " Cycles") == 0;
}

// "GC name=count/timeMs;name=count/timeMs"
Beans parse_beans(const std::string& line) {
  Beans out;
  std::stringstream ss(line.substr(line.find(' ') + 1));
  for (std::string item; std::getline(ss, item, ';');) {
    size_t eq = item.rfind('='), slash = item.rfind('/');
    out[item.substr(0, eq)] = {std::atol(item.c_str() + eq + 1), std::atol(item.c_str() + slash + 1)};
  }
  return out;
}

// Asks the fixture for a fresh "GC ..." line.
Beans read_beans(AgentJvm& jvm) {
  size_t before = 0;
  for (size_t n = 1; jvm.process->wait_for_line("GC ", 0ms, n); ++n) before = n;
  jvm.process->send("gc");
  auto line = jvm.process->wait_for_line("GC ", 10s, before + 1);
  EXPECT_TRUE(line) << "fixture gave no GC line";
  return line ? parse_beans(*line) : Beans{};
}

bool jdk_offers(const Jdk& jdk, const std::string& gc) {
  static std::mutex m;
  static std::map<std::string, bool> cache;
  std::lock_guard<std::mutex> lock(m);
  std::string key = jdk.name + gc;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  return cache[key] = run({jdk.tool("java"), "-XX:+Use" + gc + "GC", "-version"}).exit_code == 0;
}

struct AgentGc {
  Beans collections;                                  // jvm_gc_collection_seconds
  std::map<std::string, long> pauses;                 // jvmsight_gc_pause_seconds_count by gc (all actions)
  std::map<std::string, double> pause_s;              // jvmsight_gc_pause_seconds_sum by gc (all actions)
  std::map<std::string, long> collections_in_pauses;  // jvmsight_gc_pause_collections_total
  long total_pauses = 0;
  double total_pause_s = 0;
};

AgentGc agent_view(const PromScrape& s) {
  AgentGc v;
  for (const auto& c : s.all("jvm_gc_collection_seconds_count")) v.collections[c.labels.at("gc")].count = c.value;
  for (const auto& c : s.all("jvm_gc_collection_seconds_sum"))
    v.collections[c.labels.at("gc")].time_ms = std::lround(c.value * 1000);
  for (const auto& c : s.all("jvmsight_gc_pause_seconds_count")) {
    v.pauses[c.labels.at("gc")] += c.value;
    v.total_pauses += c.value;
  }
  for (const auto& c : s.all("jvmsight_gc_pause_collections_total"))
    v.collections_in_pauses[c.labels.at("gc")] = c.value;
  for (const auto& c : s.all("jvmsight_gc_pause_seconds_sum")) {
    v.pause_s[c.labels.at("gc")] += c.value;
    v.total_pause_s += c.value;
  }
  return v;
}

using JdkAndCollector = std::tuple<Jdk, std::string>;

class GcPauses : public ::testing::TestWithParam<JdkAndCollector> {
 protected:
  // Starts GcChurn with the collector and waits until the agent listens for
  // GC notifications; skips collectors the JDK lacks.
  std::unique_ptr<AgentJvm> start(const std::string& extra_options = "") {
    const auto& [jdk, gc] = GetParam();
    if (!jdk_offers(jdk, gc)) return nullptr;
    auto jvm = std::make_unique<AgentJvm>(jdk, "GcChurn", std::vector<std::string>{}, extra_options,
                                          std::vector<std::string>{"-XX:+Use" + gc + "GC", "-Xmx256m"});
    // The first answered scrape means the agent thread finished its setup,
    // notification listener included.
    if (jvm->port != 0) jvm->scrape();
    return jvm;
  }

  static void churn(AgentJvm& jvm, int system_gcs, int megabytes) {
    size_t before = 0;
    for (size_t n = 1; jvm.process->wait_for_line("CHURNED", 0ms, n); ++n) before = n;
    jvm.process->send("churn " + std::to_string(system_gcs) + " " + std::to_string(megabytes));
    ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 120s, before + 1)) << jvm.process->err();
  }

  // Expected pauses per collector label: every stop-the-world collection is
  // its own pause, except that one pause may hold several collections
  // (Parallel on JDK 17: System.gc() scavenges, then runs the full
  // collection, in one safepoint); such a pause is labelled with the full
  // collection, so fewer pauses carry the scavenger's label. The agent
  // counts the collections it found inside pauses: those must equal the
  // beans' counts exactly.
  // Without notifications, a JVM with a single stop-the-world bean ("ZGC
  // Pauses" on JDK 17, "Shenandoah Pauses") has every pause labelled with it;
  // with several (generational ZGC: Minor and Major Pauses) they are "unknown".
  static std::map<std::string, long> expected_pauses(const Beans& truth, const AgentGc& seen, bool notifications) {
    std::map<std::string, long> want;
    if (!notifications) {
      long total = 0, beans = 0;
      std::string only;
      for (const auto& [name, b] : truth)
        if (!is_cycle_bean(name)) total += b.count, ++beans, only = name;
      if (total > 0) want[beans == 1 ? only : "unknown"] = total;
      return want;
    }
    for (const auto& [name, b] : truth)
      if (!is_cycle_bean(name) && b.count > 0) want[name] = b.count;
    long shared = 0;  // collections that shared a pause with a later one
    for (const auto& [name, n] : seen.collections_in_pauses) shared += n;
    for (const auto& [name, n] : seen.pauses)
      if (name != "unknown") shared -= n;
    if (shared > 0 && want.count("PS Scavenge")) want["PS Scavenge"] -= shared;
    if (want.count("PS Scavenge") && want["PS Scavenge"] == 0) want.erase("PS Scavenge");
    return want;
  }

  // Forces collections, then compares the agent with the beans (counts
  // exactly, times within the tolerance explained inside).
  void check_counts_and_times(AgentJvm& jvm, bool notifications);
};

TEST_P(GcPauses, CountsAndTimesMatchGarbageCollectorMXBeans) {
  const auto& [jdk, gc] = GetParam();
  auto jvm = start();
  if (!jvm) GTEST_SKIP() << jdk.name << " does not offer -XX:+Use" << gc << "GC";
  ASSERT_GT(jvm->port, 0);
  // Default gc_notifications=auto: off where they would lengthen pauses.
  bool concurrent = gc == "Z" || gc == "Shenandoah";
  EXPECT_EQ(jvm->scrape().value("jvmsight_gc_notifications_enabled"), concurrent ? 0.0 : 1.0);
  check_counts_and_times(*jvm, !concurrent);
}

// Attribution by GC notification is a match on millisecond timestamps; on a
// loaded 2-core machine about one pause in 30-70 test runs is left
// "unknown" (its notification then counts as unmatched). Counts are exact:
// every pause is there, none is given to the wrong collector, and at most
// one in 10 (at least 2) may stay unattributed (measured: 2 of 38 in one
// full-suite run; docs/METRICS.md, GC, known limits).
// Returns "" when `seen` is `want` up to that, else why not.
// unknown_unpredictable: G1 before JDK 20, whose Remark/Cleanup pauses are
// "unknown" in numbers no bean tells.
std::string attribution_differs(const std::map<std::string, long>& seen, const std::map<std::string, long>& want,
                                bool unknown_unpredictable, long* unattributed = nullptr) {
  long seen_total = 0, want_total = 0, missing = 0;
  for (const auto& [k, v] : seen) seen_total += v;
  for (const auto& [k, v] : want) want_total += v;
  if (!unknown_unpredictable && seen_total != want_total)
    return "total " + std::to_string(seen_total) + " vs " + std::to_string(want_total);
  for (const auto& [label, n] : seen) {
    if (label == "unknown") continue;
    auto it = want.find(label);
    long w = it == want.end() ? 0 : it->second;
    if (n > w) return label + " has " + std::to_string(n) + ", expected at most " + std::to_string(w);
  }
  for (const auto& [label, w] : want) {
    if (label == "unknown") continue;
    auto it = seen.find(label);
    missing += w - (it == seen.end() ? 0 : it->second);
  }
  if (unattributed) *unattributed = missing;
  if (missing > std::max(2L, want_total / 10)) return std::to_string(missing) + " unattributed";
  return "";
}

void GcPauses::check_counts_and_times(AgentJvm& jvm, bool notifications) {
  const auto& [jdk, gc] = GetParam();
  churn(jvm, 5, 600);

  // A pause reaches the histogram once its notification arrived (or after a
  // 1 s grace): poll, bounded, until the agent and the JVM agree.
  Beans truth;
  AgentGc seen;
  std::map<std::string, long> want, stw;
  const bool g1_remark = gc == "G1" && jdk.feature < 20;
  for (int attempt = 0; attempt < 30; ++attempt) {
    seen = agent_view(jvm.scrape());
    truth = read_beans(jvm);
    want = expected_pauses(truth, seen, notifications);
    stw.clear();
    for (const auto& [name, b] : truth)
      if (!is_cycle_bean(name) && b.count > 0) stw[name] = b.count;
    if (!notifications && want.count("unknown")) stw.clear();  // nothing to attribute with
    // G1 before JDK 20 counts its Remark and Cleanup pauses in no bean and
    // sends no notification for them: they are the "unknown" pauses.
    if (g1_remark && seen.pauses.count("unknown")) want["unknown"] = seen.pauses["unknown"];
    if (seen.collections == truth && seen.pauses == want && seen.collections_in_pauses == stw) break;
    // Settled but for a rare unattributed pause: no point waiting longer.
    if (attempt >= 10 && seen.collections == truth && attribution_differs(seen.pauses, want, g1_remark).empty()) break;
    std::this_thread::sleep_for(200ms);
  }
  SCOPED_TRACE(jdk.name + " " + gc + ": " + jvm.process->last_line("GC "));
  EXPECT_EQ(seen.collections, truth) << "jvm_gc_collection_seconds vs GarbageCollectorMXBeans";
  long unattributed = 0;
  EXPECT_EQ(attribution_differs(seen.pauses, want, g1_remark, &unattributed), "")
      << "JVM TI pauses by collector vs the stop-the-world collectors' counts";
  // Collections found inside pauses: never more than the beans counted, and
  // short by at most the same slack as the attribution.
  long in_pauses = 0, stw_total = 0;
  for (const auto& [name, n] : seen.collections_in_pauses) {
    in_pauses += n;
    EXPECT_LE(n, stw.count(name) ? stw[name] : 0) << name << ": more collections in pauses than the bean counted";
  }
  for (const auto& [name, n] : stw) stw_total += n;
  const long slack = std::max(2L, stw_total / 10);
  EXPECT_LE(in_pauses, stw_total);
  EXPECT_GE(in_pauses, stw_total - slack) << "every stop-the-world collection lies inside a JVM TI pause";
  EXPECT_LE(jvm.scrape().value("jvmsight_gc_notifications_unmatched_total").value_or(-1), double(slack));
  EXPECT_GE(jvm.scrape().value("jvmsight_gc_notifications_unmatched_total").value_or(-1), 0.0);
  if (unattributed > 0)
    std::printf("[gc] %s %s: %ld of %ld pauses unattributed\n", jdk.name.c_str(), gc.c_str(), unattributed, stw_total);
  if (gc == "G1" && want.count("unknown"))
    std::printf("[gc] %s G1: %ld Remark/Cleanup pauses unattributed (no bean before JDK 20)\n", jdk.name.c_str(),
                want["unknown"]);
  long stw_collections = 0, stw_ms = 0;
  for (const auto& [name, b] : truth)
    if (!is_cycle_bean(name)) stw_collections += b.count, stw_ms += b.time_ms;
  EXPECT_GE(stw_collections, 5) << "the fixture forced at least 5 collections";

  // Pause sums vs the beans' times. The beans accumulate each collection's
  // time and report whole ms (truncated: up to 1 ms low). JVM TI's
  // GarbageCollectionStart/Finish bracket the collector's own timer plus the
  // work around it inside the same safepoint (heap prologue/epilogue, TLAB
  // retirement, memory pool and code cache bookkeeping), so the agent sees a
  // little more: measured +2..+12% on G1, Parallel and Serial of JDK 25 and
  // G1/Parallel of JDK 17, and up to +32% (about 2 ms per full collection)
  // on JDK 17 Serial. Before JDK 17 the mark-sweep full collections (Serial's
  // MarkSweepCompact, CMS's ConcurrentMarkSweep) leave more of their
  // safepoint outside the bean's timer: measured 6-10 ms per full collection
  // on JDK 8 and 11 Serial, 2-3 ms with CMS. Tolerance: never below the
  // beans' time (minus the 1 ms truncation and 2% rounding slack), at most
  // 40% + 1 ms + 0.3 ms per pause above it, plus 12 ms per such full
  // collection before JDK 17.
  long old_full = 0;
  if (jdk.feature < 17)
    for (const char* full : {"MarkSweepCompact", "ConcurrentMarkSweep"})
      if (auto it = truth.find(full); it != truth.end()) old_full += it->second.count;
  double agent_ms = seen.total_pause_s * 1000;
  EXPECT_GE(agent_ms, stw_ms - 1.0 - 0.02 * stw_ms) << "agent pause sum below the collectors' own time";
  EXPECT_LE(agent_ms, 1.4 * stw_ms + 1 + 0.3 * seen.total_pauses + 12.0 * old_full)
      << "agent pause sum above the collectors' own time";
  std::printf("[gc] %s %s: %ld pauses, agent %.3f ms, MXBeans %ld ms (stop-the-world collectors)\n", jdk.name.c_str(),
              gc.c_str(), seen.total_pauses, agent_ms, stw_ms);
}

// Collectors with a concurrent-cycle bean ("ZGC Cycles", "Shenandoah Cycles").
class ConcurrentGc : public GcPauses {};

// Asked for explicitly, notifications attribute ZGC/Shenandoah pauses too
// (generational ZGC: Minor vs Major), at the cost measured in BENCHMARKS.md.
TEST_P(ConcurrentGc, NotificationsOnAttributeEveryPause) {
  const auto& [jdk, gc] = GetParam();
  auto jvm = start("gc_notifications=on");
  if (!jvm) GTEST_SKIP() << jdk.name << " does not offer -XX:+Use" << gc << "GC";
  ASSERT_GT(jvm->port, 0);
  EXPECT_EQ(jvm->scrape().value("jvmsight_gc_notifications_enabled"), 1.0);
  check_counts_and_times(*jvm, true);
}

TEST_P(ConcurrentGc, CycleTimeNeverInPauseHistogram) {
  const auto& [jdk, gc] = GetParam();
  auto jvm = start();
  if (!jvm) GTEST_SKIP() << jdk.name << " does not offer -XX:+Use" << gc << "GC";
  ASSERT_GT(jvm->port, 0);
  churn(*jvm, 4, 600);
  std::this_thread::sleep_for(1500ms);  // past the matcher's grace period
  PromScrape s = jvm->scrape();
  Beans truth = read_beans(*jvm);
  long cycle_ms = 0, pause_bean_ms = 0, cycles = 0;
  for (const auto& [name, b] : truth) {
    if (is_cycle_bean(name)) {
      cycle_ms += b.time_ms;
      cycles += b.count;
      EXPECT_EQ(s.value("jvmsight_gc_concurrent_cycle_seconds_count", {{"gc", name}}), b.count) << name;
      EXPECT_NEAR(s.value("jvmsight_gc_concurrent_cycle_seconds_sum", {{"gc", name}}).value_or(-1), b.time_ms / 1000.0,
                  1e-9)
          << name;
    } else {
      pause_bean_ms += b.time_ms;
    }
  }
  ASSERT_GE(cycles, 4) << "the fixture forced at least 4 cycles";
  AgentGc seen = agent_view(s);
  for (const auto& [label, n] : seen.pauses) EXPECT_FALSE(is_cycle_bean(label)) << label << " labelled as a pause";
  double agent_ms = seen.total_pause_s * 1000;
  std::printf("[gc] %s %s: %ld cycles %ld ms; %ld pauses agent %.3f ms, pause beans %ld ms\n", jdk.name.c_str(),
              gc.c_str(), cycles, cycle_ms, seen.total_pauses, agent_ms, pause_bean_ms);
  // Cycles take tens of ms each, pauses tens of µs: any cycle time counted as
  // pause would blow the pause sum far past the pause beans' time.
  // ZGC/Shenandoah pauses are 5-100 µs each; one leaked cycle is 10+ ms.
  EXPECT_LE(agent_ms, pause_bean_ms + 1 + 0.1 * seen.total_pauses);
  EXPECT_GT(cycle_ms, 2 * agent_ms + 2) << "the cycles should dwarf the pauses";
  EXPECT_LT(s.value("jvmsight_gc_pause_max_seconds").value_or(1), 0.05);
}

// Span records do not depend on the collector: checked with G1, the default.
class GcSpans : public GcPauses {};

TEST_P(GcSpans, PausesBecomeSpansAboveTheThreshold) {
  auto jvm = start();
  ASSERT_TRUE(jvm && jvm->port > 0);
  churn(*jvm, 3, 100);
  std::this_thread::sleep_for(1500ms);
  HttpResult r = jvm->get("/gc");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("application/json"), std::string::npos);
  EXPECT_NE(r.body.find("\"gc\":\"G1 Old Generation\",\"action\":\"end of major GC\",\"cause\":\"System.gc()\""),
            std::string::npos)
      << r.body;
  long pauses = agent_view(jvm->scrape()).total_pauses;
  size_t spans = 0;
  for (size_t pos = r.body.find("\"spans\":"); (pos = r.body.find("\"gc.pause\"", pos + 1)) != std::string::npos;)
    ++spans;
  EXPECT_GE(pauses, 3);
  EXPECT_EQ(static_cast<long>(spans), pauses) << "threshold 0: every pause is a span";

  // An hour's threshold: pauses are measured, no span is queued.
  auto quiet = start("gc_span_min_ms=3600000");
  ASSERT_TRUE(quiet && quiet->port > 0);
  churn(*quiet, 3, 100);
  std::this_thread::sleep_for(1500ms);
  HttpResult q = quiet->get("/gc");
  EXPECT_NE(q.body.find("\"span_queue\":{\"size\":0,"), std::string::npos) << q.body;
  EXPECT_NE(q.body.find("\"recent_pauses\":[{\"name\":\"gc.pause\""), std::string::npos) << q.body;
  EXPECT_NE(q.body.find("\"span_min_ns\":3600000000000"), std::string::npos) << q.body;
}

// Loaded later with jcmd JVMTI.agent_load: GC events are granted in the live
// phase too, and pauses after the attach are all measured and attributed.
class GcAttach : public ::testing::TestWithParam<Jdk> {};

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

JVMSIGHT_ALL_JDKS(GcAttach);

std::string param_name(const ::testing::TestParamInfo<JdkAndCollector>& i) {
  return std::get<0>(i.param).name + "_" + std::get<1>(i.param);
}

INSTANTIATE_TEST_SUITE_P(JdksAndCollectors, GcPauses,
                         ::testing::Combine(::testing::ValuesIn(core_jdks()),
                                            ::testing::Values("Serial", "Parallel", "G1", "ConcMarkSweep", "Z",
                                                              "Shenandoah")),
                         param_name);
INSTANTIATE_TEST_SUITE_P(JdksAndCollectors, ConcurrentGc,
                         ::testing::Combine(::testing::ValuesIn(core_jdks()), ::testing::Values("Z", "Shenandoah")),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Jdks, GcSpans, ::testing::Combine(::testing::ValuesIn(jdks()), ::testing::Values("G1")),
                         param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GcPauses);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConcurrentGc);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GcSpans);

}  // namespace
}  // namespace jvmsight::test
