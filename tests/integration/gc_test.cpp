// GC pauses measured by the agent (JVM TI) against what the same JVM's
// GarbageCollectorMXBeans say, for every collector each JDK offers.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
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

// Sends the fixture `command` and returns the fresh line starting with `prefix`.
std::string ask(AgentJvm& jvm, const std::string& command, const std::string& prefix) {
  size_t before = 0;
  for (size_t n = 1; jvm.process->wait_for_line(prefix, 0ms, n); ++n) before = n;
  jvm.process->send(command);
  auto line = jvm.process->wait_for_line(prefix, 10s, before + 1);
  EXPECT_TRUE(line) << "fixture gave no " << prefix << "line";
  return line.value_or("");
}

Beans read_beans(AgentJvm& jvm) {
  std::string line = ask(jvm, "gc", "GC ");
  return line.empty() ? Beans{} : parse_beans(line);
}

// The fixture's own tally of its GC notifications, "gcName|gcAction|gcCause"
// -> count, from "CAUSES key=count;key=count".
std::map<std::string, long> read_causes(AgentJvm& jvm) {
  std::map<std::string, long> out;
  std::string line = ask(jvm, "causes", "CAUSES");
  std::stringstream ss(line.size() > 7 ? line.substr(7) : "");
  for (std::string item; std::getline(ss, item, ';');)
    if (size_t eq = item.rfind('='); eq != std::string::npos)
      out[item.substr(0, eq)] = std::atol(item.c_str() + eq + 1);
  return out;
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
  std::map<std::string, long> by_cause;               // pauses by "gc|action|cause" (option gc_cause=on)
  long total_pauses = 0;
  double total_pause_s = 0;
};

AgentGc agent_view(const PromScrape& s) {
  AgentGc v;
  for (const auto& c : s.all("jvm_gc_collection_seconds_count")) v.collections[c.labels.at("gc")].count = c.value;
  for (const auto& c : s.all("jvm_gc_collection_seconds_sum"))
    v.collections[c.labels.at("gc")].time_ms = std::lround(c.value * 1000);
  for (const auto& c : s.all("jvmsight_gc_pause_seconds_count")) {
    if (c.labels.count("cause"))
      v.by_cause[c.labels.at("gc") + "|" + c.labels.at("action") + "|" + c.labels.at("cause")] += c.value;
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

long sum(const std::map<std::string, long>& counts) {
  long total = 0;
  for (const auto& [k, v] : counts) total += v;
  return total;
}

using JdkAndCollector = std::tuple<Jdk, std::string>;

class GcPauses : public ::testing::TestWithParam<JdkAndCollector> {
 protected:
  // Starts GcChurn with the collector and waits until the agent listens for
  // GC notifications; skips collectors the JDK lacks. tally_causes: the
  // fixture counts its own GC notifications too (a listener of its own).
  std::unique_ptr<AgentJvm> start(const std::string& extra_options = "", bool tally_causes = false) {
    const auto& [jdk, gc] = GetParam();
    if (!jdk_offers(jdk, gc)) return nullptr;
    auto args = tally_causes ? std::vector<std::string>{"causes"} : std::vector<std::string>{};
    auto jvm = std::make_unique<AgentJvm>(jdk, "GcChurn", args, extra_options,
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
  // The pauses' gc, action and cause labels against the fixture's own
  // GarbageCollectionNotificationInfo tally.
  static void check_causes(AgentJvm& jvm);
};

TEST_P(GcPauses, CountsAndTimesMatchGarbageCollectorMXBeans) {
  const auto& [jdk, gc] = GetParam();
  // Default gc_notifications=auto: off where they would lengthen pauses.
  bool concurrent = gc == "Z" || gc == "Shenandoah";
  auto jvm = start("gc_cause=on", !concurrent);
  if (!jvm) GTEST_SKIP() << jdk.name << " does not offer -XX:+Use" << gc << "GC";
  ASSERT_GT(jvm->port, 0);
  EXPECT_EQ(jvm->scrape().value("jvmsight_gc_notifications_enabled"), concurrent ? 0.0 : 1.0);
  check_counts_and_times(*jvm, !concurrent);
}

// Attribution by GC notification is a match on millisecond timestamps.
// Counts are exact: every pause is there and none is given to the wrong
// collector. At most one in 10 (at least 2) may stay "unknown" (its
// notification then counts as unmatched). Measured with two CPU hogs per
// core, jdk25 G1: 1 of 25 runs left 3 of 32 pauses unknown (few long
// back-to-back pauses at the start let the clock offset settle one
// collection off), none of the other 24 any (docs/METRICS.md, GC, known
// limits).
long unattributed_allowed(long pauses) { return std::max(2L, pauses / 10); }
// Returns "" when `seen` is `want` up to that, else why not.
// unknown_unpredictable: G1 before JDK 20, whose Remark/Cleanup pauses are
// "unknown" in numbers no bean tells. unmatched: notifications in no pause;
// one of a pause holding two collections (Parallel before JDK 25) leaves the
// expected count of shared pauses one short (2 of 24 loaded jdk17 runs).
std::string attribution_differs(const std::map<std::string, long>& seen, const std::map<std::string, long>& want,
                                bool unknown_unpredictable, long unmatched, long* unattributed = nullptr) {
  long seen_total = sum(seen), want_total = sum(want), missing = 0;
  if (!unknown_unpredictable && std::abs(seen_total - want_total) > unmatched)
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
  if (missing > unattributed_allowed(want_total)) return std::to_string(missing) + " unattributed";
  return "";
}

void GcPauses::check_counts_and_times(AgentJvm& jvm, bool notifications) {
  const auto& [jdk, gc] = GetParam();
  churn(jvm, 5, 600);

  // A pause reaches the histogram once its notification arrived (one
  // without waits up to 10 s). Settled means: every collection the beans
  // counted has had its notification accounted for by the agent (inside a
  // pause, or unmatched), or without notifications every pause is there.
  // Polled until then, or 30 s.
  Beans truth;
  AgentGc seen;
  std::map<std::string, long> want, stw;
  const bool g1_remark = gc == "G1" && jdk.feature < 20;
  for (auto deadline = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < deadline;) {
    PromScrape scrape = jvm.scrape();
    seen = agent_view(scrape);
    truth = read_beans(jvm);
    want = expected_pauses(truth, seen, notifications);
    stw.clear();
    long accounted = std::lround(scrape.value("jvmsight_gc_notifications_unmatched_total").value_or(0));
    long sent = 0;  // stop-the-world collections, one notification each
    for (const auto& [name, n] : seen.collections_in_pauses) accounted += n;
    for (const auto& [name, b] : truth)
      if (!is_cycle_bean(name) && b.count > 0) stw[name] = b.count, sent += b.count;
    if (!notifications && want.count("unknown")) stw.clear();  // nothing to attribute with
    // G1 before JDK 20 counts its Remark and Cleanup pauses in no bean and
    // sends no notification for them: they are the "unknown" pauses.
    if (g1_remark && seen.pauses.count("unknown")) want["unknown"] = seen.pauses["unknown"];
    if (seen.collections == truth && (notifications ? accounted == sent : seen.total_pauses == sum(want))) break;
    std::this_thread::sleep_for(200ms);
  }
  SCOPED_TRACE(jdk.name + " " + gc + ": " + jvm.process->last_line("GC "));
  EXPECT_EQ(seen.collections, truth) << "jvm_gc_collection_seconds vs GarbageCollectorMXBeans";
  long unattributed = 0;
  const long unmatched = std::lround(jvm.scrape().value("jvmsight_gc_notifications_unmatched_total").value_or(0));
  EXPECT_EQ(attribution_differs(seen.pauses, want, g1_remark, unmatched, &unattributed), "")
      << "JVM TI pauses by collector vs the stop-the-world collectors' counts";
  // Collections found inside pauses: never more than the beans counted, and
  // short by at most the same slack as the attribution.
  long in_pauses = 0, stw_total = 0;
  for (const auto& [name, n] : seen.collections_in_pauses) {
    in_pauses += n;
    EXPECT_LE(n, stw.count(name) ? stw[name] : 0) << name << ": more collections in pauses than the bean counted";
  }
  for (const auto& [name, n] : stw) stw_total += n;
  const long slack = unattributed_allowed(stw_total);
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
  if (notifications) check_causes(jvm);

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

// Every pause attributed to a collection carries that collection's gc,
// action and cause as the JVM's GarbageCollectionNotificationInfo gave them
// to the fixture's own listener in the same JVM: no label the JVM did not
// send. Short only by the pauses holding several collections (labelled with
// the last one: Parallel on JDK 17) and the "unknown" ones.
void GcPauses::check_causes(AgentJvm& jvm) {
  const auto& [jdk, gc] = GetParam();
  auto stop_the_world = [](const std::string& key) { return !is_cycle_bean(key.substr(0, key.find('|'))); };
  // Compared once the agent has accounted for as many notifications as the
  // fixture's listener counted (ZGC may still run a cycle of its own).
  AgentGc seen;
  std::map<std::string, long> truth;
  long unmatched = 0;
  for (auto deadline = std::chrono::steady_clock::now() + 15s; std::chrono::steady_clock::now() < deadline;) {
    PromScrape scrape = jvm.scrape();
    seen = agent_view(scrape);
    truth = read_causes(jvm);
    unmatched = std::lround(scrape.value("jvmsight_gc_notifications_unmatched_total").value_or(0));
    long accounted = unmatched, tallied = 0;
    for (const auto& [name, n] : seen.collections_in_pauses) accounted += n;
    for (const auto& [key, n] : truth)
      if (stop_the_world(key)) tallied += n;
    if (tallied == accounted) break;
    std::this_thread::sleep_for(200ms);
  }
  long allowed = 0, shortfall = 0;  // collections sharing a pause, plus unknown pauses
  for (const auto& [name, n] : seen.collections_in_pauses) allowed += n;
  for (const auto& [name, n] : seen.pauses)
    if (name != "unknown") allowed -= n;
  allowed += seen.pauses.count("unknown") ? seen.pauses.at("unknown") : 0;
  allowed += unmatched;  // a collection in no pause carries no label
  std::string report;
  for (const auto& [key, n] : seen.by_cause) {
    if (key.compare(0, 8, "unknown|") == 0) continue;
    auto it = truth.find(key);
    EXPECT_LE(n, it == truth.end() ? 0 : it->second) << key << ": more pauses than the JVM sent such notifications";
  }
  for (const auto& [key, n] : truth) {
    auto it = seen.by_cause.find(key);
    long agent = it == seen.by_cause.end() ? 0 : it->second;
    if (stop_the_world(key)) shortfall += n - agent;
    report += "\n    " + key + ": JVM " + std::to_string(n) + ", agent " + std::to_string(agent);
  }
  EXPECT_LE(shortfall, allowed) << "pauses missing their collection's gc|action|cause:" << report;
  bool system_gc = false;
  for (const auto& [key, n] : truth) system_gc = system_gc || key.find("|System.gc()") != std::string::npos;
  EXPECT_TRUE(system_gc) << "the fixture's System.gc() calls" << report;
  std::printf("[gc] %s %s: gc|action|cause%s\n", jdk.name.c_str(), gc.c_str(), report.c_str());
}

// Collectors with a concurrent-cycle bean ("ZGC Cycles", "Shenandoah Cycles").
class ConcurrentGc : public GcPauses {};

// Asked for explicitly, notifications attribute ZGC/Shenandoah pauses too
// (generational ZGC: Minor vs Major), at the cost measured in BENCHMARKS.md.
TEST_P(ConcurrentGc, NotificationsOnAttributeEveryPause) {
  const auto& [jdk, gc] = GetParam();
  auto jvm = start("gc_notifications=on,gc_cause=on", true);
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

JVMSIGHT_JDKS(GcAttach, system_jdks());

std::string param_name(const ::testing::TestParamInfo<JdkAndCollector>& i) {
  return std::get<0>(i.param).name + "_" + std::get<1>(i.param);
}

INSTANTIATE_TEST_SUITE_P(JdksAndCollectors, GcPauses,
                         ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                                            ::testing::Values("Serial", "Parallel", "G1", "ConcMarkSweep", "Z",
                                                              "Shenandoah")),
                         param_name);
INSTANTIATE_TEST_SUITE_P(JdksAndCollectors, ConcurrentGc,
                         ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                                            ::testing::Values("Z", "Shenandoah")),
                         param_name);
INSTANTIATE_TEST_SUITE_P(Jdks, GcSpans,
                         ::testing::Combine(::testing::ValuesIn(system_jdks().list()), ::testing::Values("G1")),
                         param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GcPauses);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConcurrentGc);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GcSpans);

}  // namespace
}  // namespace jvmsight::test
