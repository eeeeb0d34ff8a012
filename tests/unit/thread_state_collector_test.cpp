#include "collectors/threads/thread_state_collector.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

class FakeThreadSource : public ThreadSource {
 public:
  std::vector<jint> states;
  std::optional<ThreadCounts> mx;
  bool refuse = false;
  bool count_states(ThreadStateCounts& out) override {
    if (refuse) return false;
    for (jint s : states) out.add(s);
    return true;
  }
  std::optional<ThreadCounts> counts() override { return mx; }
};

double sample(const MetricFamily& f, const std::string& label_value) {
  for (const auto& s : f.samples)
    if (!s.labels.empty() && s.labels[0].value == label_value) return s.value;
  return -1;
}

TEST(ThreadStateCollector, ExportsClientJavaFamiliesWithAllStates) {
  FakeThreadSource src;
  src.mx = ThreadCounts{7, 5, 9, 12};
  src.states = {JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER,
                JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER,
                JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_INDEFINITELY |
                    JVMTI_THREAD_STATE_PARKED};
  VirtualThreadCounter vt;
  ThreadStateCollector c(src, vt);
  MetricFamilies out;
  c.collect(out);
  ASSERT_NE(find_family(out, "jvm_threads_current"), nullptr);
  EXPECT_EQ(find_family(out, "jvm_threads_current")->samples[0].value, 7);
  EXPECT_EQ(find_family(out, "jvm_threads_daemon")->samples[0].value, 5);
  EXPECT_EQ(find_family(out, "jvm_threads_peak")->samples[0].value, 9);
  EXPECT_EQ(find_family(out, "jvm_threads_started_total")->samples[0].value, 12);
  EXPECT_EQ(find_family(out, "jvm_threads_started_total")->type, MetricType::counter);
  const MetricFamily* states = find_family(out, "jvm_threads_state");
  ASSERT_NE(states, nullptr);
  EXPECT_EQ(states->samples.size(), 7u);  // the six Thread.State values and client_java's UNKNOWN
  EXPECT_EQ(sample(*states, "BLOCKED"), 2);
  EXPECT_EQ(sample(*states, "WAITING"), 1);
  EXPECT_EQ(sample(*states, "NEW"), 0);
  EXPECT_EQ(sample(*states, "UNKNOWN"), 0);
  EXPECT_EQ(sample(*find_family(out, "jvmsight_threads_substate"), "parked"), 1);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_supported")->samples[0].value, 0);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_live"), nullptr);
}

TEST(ThreadStateCollector, VirtualThreadsWhenSupported) {
  FakeThreadSource src;
  VirtualThreadCounter vt;
  vt.set_supported(true);
  for (int i = 0; i < 5; ++i) vt.on_start();
  vt.on_end();
  ThreadStateCollector c(src, vt);
  MetricFamilies out;
  c.collect(out);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_started_total")->samples[0].value, 5);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_live")->samples[0].value, 4);
}

TEST(ThreadStateCollector, RefusingJvmOmitsFamiliesInsteadOfReportingZeros) {
  FakeThreadSource src;
  src.refuse = true;
  VirtualThreadCounter vt;
  ThreadStateCollector c(src, vt);
  MetricFamilies out;
  c.collect(out);
  EXPECT_EQ(find_family(out, "jvm_threads_state"), nullptr);
  EXPECT_EQ(find_family(out, "jvm_threads_current"), nullptr);
}

TEST(VirtualThreadCounter, LiveNeverNegativeAfterAttach) {
  VirtualThreadCounter vt;
  vt.on_end();  // a thread that started before the agent attached
  EXPECT_EQ(vt.live(), 0u);
}

}  // namespace
}  // namespace jvmsight
