#pragma once
// GC pauses as the agent measures them (JVM TI) against what the same JVM's
// GarbageCollectorMXBeans and GC notifications say: the fixture (GcChurn)
// reads its beans and tallies its notifications on request. Shared by the
// GC suites.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {

struct Bean {
  long count = 0;
  long time_ms = 0;
  bool operator==(const Bean& o) const { return count == o.count && time_ms == o.time_ms; }
};
using Beans = std::map<std::string, Bean>;

// "ZGC Cycles", "Shenandoah Cycles": concurrent cycles, not pauses.
bool is_cycle_bean(const std::string& name);
// "GC name=count/timeMs;name=count/timeMs"
Beans parse_beans(const std::string& line);
Beans read_beans(AgentJvm& jvm);
// The fixture's own tally of its GC notifications, "gcName|gcAction|gcCause"
// -> count, from "CAUSES key=count;key=count".
std::map<std::string, long> read_causes(AgentJvm& jvm);
bool jdk_offers(const Jdk& jdk, const std::string& gc);

struct AgentGc {
  Beans collections;                                  // jvm_gc_collection_seconds
  std::map<std::string, long> pauses;                 // jvmsight_gc_pause_seconds_count by gc (all actions)
  std::map<std::string, double> pause_s;              // jvmsight_gc_pause_seconds_sum by gc (all actions)
  std::map<std::string, long> collections_in_pauses;  // jvmsight_gc_pause_collections_total
  std::map<std::string, long> by_cause;               // pauses by "gc|action|cause" (option gc_cause=on)
  long total_pauses = 0;
  double total_pause_s = 0;
};
AgentGc agent_view(const PromScrape& s);
long sum(const std::map<std::string, long>& counts);

using JdkAndCollector = std::tuple<Jdk, std::string>;
std::string param_name(const ::testing::TestParamInfo<JdkAndCollector>& i);

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
  static std::map<std::string, long> expected_pauses(const Beans& truth, const AgentGc& seen, bool notifications);

  // Forces collections, then compares the agent with the beans (counts
  // exactly, times within the tolerance explained inside).
  void check_counts_and_times(AgentJvm& jvm, bool notifications);
  // The pauses' gc, action and cause labels against the fixture's own
  // GarbageCollectionNotificationInfo tally.
  static void check_causes(AgentJvm& jvm);
};

}  // namespace jvmsight::test
