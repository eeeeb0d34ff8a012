// Collectors with a concurrent-cycle bean ("ZGC Cycles", "Shenandoah
// Cycles"): cycles apart from pauses, and notifications when asked for.
#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "tests/integration/gc/gc_pauses.h"

namespace jvmsight::test {
namespace {

class ConcurrentGc : public GcPauses {};
INSTANTIATE_TEST_SUITE_P(JdksAndCollectors, ConcurrentGc,
                         ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                                            ::testing::Values("Z", "Shenandoah")),
                         param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ConcurrentGc);

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

bool cycles_agree(const PromScrape& s, const Beans& truth) {
  for (const auto& [name, b] : truth)
    if (is_cycle_bean(name) &&
        (s.value("jvmsight_gc_concurrent_cycle_seconds_count", {{"gc", name}}) != double(b.count) ||
         std::lround(s.value("jvmsight_gc_concurrent_cycle_seconds_sum", {{"gc", name}}).value_or(-1) * 1000) !=
             b.time_ms))
      return false;
  return true;
}

TEST_P(ConcurrentGc, CycleTimeNeverInPauseHistogram) {
  const auto& [jdk, gc] = GetParam();
  auto jvm = start();
  if (!jvm) GTEST_SKIP() << jdk.name << " does not offer -XX:+Use" << gc << "GC";
  ASSERT_GT(jvm->port, 0);
  churn(*jvm, 4, 600);
  std::this_thread::sleep_for(1500ms);  // past the matcher's grace period
  // ZGC and Shenandoah start cycles of their own (timers, allocation rate):
  // one may end between the scrape and the beans. Read until both agree.
  PromScrape s = jvm->scrape();
  Beans truth = read_beans(*jvm);
  for (auto deadline = std::chrono::steady_clock::now() + 30s;
       !cycles_agree(s, truth) && std::chrono::steady_clock::now() < deadline;) {
    std::this_thread::sleep_for(200ms);
    s = jvm->scrape();
    truth = read_beans(*jvm);
  }
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
}

}  // namespace
}  // namespace jvmsight::test
