#include "collectors/threads/thread_state_collector.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

class FakeThreadSource : public ThreadSource {
 public:
  std::vector<jint> states;
  std::vector<bool> daemon;  // per state entry; empty: the daemon flag is unknown
  std::optional<ThreadCounts> mx;
  std::optional<uint64_t> live_virtual;  // nullopt: no virtual threads (before JDK 21)
  std::optional<uint64_t> started_virtual;
  bool refuse = false;
  bool count_states(ThreadStateCounts& out) override {
    if (refuse) return false;
    out.daemon_known = !daemon.empty();
    for (size_t i = 0; i < states.size(); ++i) out.add(states[i], !daemon.empty() && daemon[i]);
    return true;
  }
  std::optional<ThreadCounts> counts() override { return mx; }
  std::optional<uint64_t> live_virtual_threads() override { return live_virtual; }
  std::optional<uint64_t> virtual_threads_started() override { return started_virtual; }
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
  ThreadStateCollector c(src);
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

double labelled(const MetricFamily& f, const std::string& state, const std::string& daemon) {
  for (const auto& s : f.samples)
    if (s.labels.size() == 2 && s.labels[0].value == state && s.labels[1].value == daemon) return s.value;
  return -1;
}

// Daemon x state (for OTLP's jvm.thread.count): every state twice, the two
// halves adding up to jvm_threads_state; listed before it; absent when the
// daemon flag is unknown.
TEST(ThreadStateCollector, DaemonSplitOfStates) {
  const jint blocked = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER;
  const jint runnable = JVMTI_THREAD_STATE_ALIVE | JVMTI_THREAD_STATE_RUNNABLE;
  FakeThreadSource src;
  src.states = {blocked, blocked, runnable, runnable, runnable};
  src.daemon = {true, false, true, true, false};
  ThreadStateCollector c(src);
  MetricFamilies out;
  c.collect(out);
  const MetricFamily* by_daemon = find_family(out, "jvmsight_threads_state_by_daemon");
  ASSERT_NE(by_daemon, nullptr);
  EXPECT_EQ(by_daemon->samples.size(), 12u);
  EXPECT_EQ(labelled(*by_daemon, "BLOCKED", "true"), 1);
  EXPECT_EQ(labelled(*by_daemon, "BLOCKED", "false"), 1);
  EXPECT_EQ(labelled(*by_daemon, "RUNNABLE", "true"), 2);
  EXPECT_EQ(labelled(*by_daemon, "RUNNABLE", "false"), 1);
  EXPECT_EQ(labelled(*by_daemon, "WAITING", "false"), 0);
  auto position = [&](const std::string& name) {
    for (size_t i = 0; i < out.size(); ++i)
      if (out[i].name == name) return i;
    return out.size();
  };
  EXPECT_LT(position("jvmsight_threads_state_by_daemon"), position("jvm_threads_state"));

  src.daemon.clear();
  MetricFamilies unknown;
  c.collect(unknown);
  EXPECT_EQ(find_family(unknown, "jvmsight_threads_state_by_daemon"), nullptr);
  EXPECT_NE(find_family(unknown, "jvm_threads_state"), nullptr);
}

// Live and started virtual threads come from the source (the JDK's
// containers and thread ids); starts only where it can count them.
TEST(ThreadStateCollector, LiveVirtualThreadsFromTheSourceStartsOnlyWhenCounted) {
  FakeThreadSource src;
  src.live_virtual = 4;
  ThreadStateCollector c(src);
  MetricFamilies out;
  c.collect(out);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_supported")->samples[0].value, 1);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_live")->samples[0].value, 4);
  EXPECT_EQ(find_family(out, "jvmsight_virtual_threads_started_total"), nullptr);

  src.started_virtual = 5;
  MetricFamilies counted;
  c.collect(counted);
  EXPECT_EQ(find_family(counted, "jvmsight_virtual_threads_started_total")->samples[0].value, 5);
  EXPECT_EQ(find_family(counted, "jvmsight_virtual_threads_live")->samples[0].value, 4);
}

TEST(ThreadStateCollector, RefusingJvmOmitsFamiliesInsteadOfReportingZeros) {
  FakeThreadSource src;
  src.refuse = true;
  ThreadStateCollector c(src);
  MetricFamilies out;
  c.collect(out);
  EXPECT_EQ(find_family(out, "jvm_threads_state"), nullptr);
  EXPECT_EQ(find_family(out, "jvm_threads_current"), nullptr);
}

}  // namespace
}  // namespace jvmsight
