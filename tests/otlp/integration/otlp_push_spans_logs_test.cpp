// OTLP push end to end, traces and logs: GC pauses and long contended
// waits arrive as spans, a deadlock as one log record, from real JVMs to
// real receivers, compared with what the JVM itself reports.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"
#include "tests/harness/prometheus_text.h"
#include "tests/harness/thread_truth.h"
#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

std::string span_attribute(const opentelemetry::proto::trace::v1::Span& s, const std::string& key) {
  for (const auto& kv : s.attributes())
    if (kv.key() == key) return kv.value().string_value();
  return "";
}

// Every GC pause at or above gc_span_min_ms becomes one span. With the
// threshold at 0 and Serial GC (every collection is one pause, and the
// fixture collects nothing before its first command), the spans received
// equal the GarbageCollectorMXBeans' total count. Each span is a root span
// with its own random ids, kind INTERNAL, its end not before its start, and
// its duration the pause's exact duration.
TEST_P(OtlpPush, GcPausesArriveAsSpans) {
  namespace tpb = opentelemetry::proto::trace::v1;
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "GcChurn", push_env(*receiver, protocol()), {"-XX:+UseSerialGC", "-Xmx256m"}, {},
                 "gc_span_min_ms=0");
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("churn 3 100");
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));
  jvm.process->send("gc");
  std::string line = jvm.process->wait_for_line("GC ", 30s).value_or("GC ");
  long bean_total = 0;
  std::stringstream entries(line.substr(3));
  for (std::string e; std::getline(entries, e, ';');) bean_total += std::stol(e.substr(e.find('=') + 1));
  ASSERT_GE(bean_total, 3) << line;

  // Bounded by time: a pause no notification matched settles up to 10 s late.
  std::vector<tpb::Span> spans;
  for (auto until = std::chrono::steady_clock::now() + 25s; std::chrono::steady_clock::now() < until;) {
    spans.clear();
    for (const auto& r : receiver->received("traces"))
      for (const auto& rs : r.traces.resource_spans())
        for (const auto& ss : rs.scope_spans())
          for (const auto& s : ss.spans())
            if (s.name() == "gc.pause") spans.push_back(s);
    if (static_cast<long>(spans.size()) >= bean_total) break;
    std::this_thread::sleep_for(200ms);
  }
  EXPECT_EQ(static_cast<long>(spans.size()), bean_total);
  std::set<std::string> span_ids, trace_ids;
  for (const auto& s : spans) {
    EXPECT_EQ(s.kind(), tpb::Span::SPAN_KIND_INTERNAL);
    EXPECT_EQ(s.trace_id().size(), 16u);
    EXPECT_EQ(s.span_id().size(), 8u);
    EXPECT_TRUE(s.parent_span_id().empty());
    EXPECT_GE(s.end_time_unix_nano(), s.start_time_unix_nano());
    EXPECT_GT(s.start_time_unix_nano(), 1'000'000'000'000'000'000ull);  // wall clock, after 2001
    EXPECT_FALSE(span_attribute(s, "gc").empty());
    span_ids.insert(s.span_id());
    trace_ids.insert(s.trace_id());
  }
  EXPECT_EQ(span_ids.size(), spans.size());
  EXPECT_EQ(trace_ids.size(), spans.size());
  const auto traces = receiver->received("traces");
  ASSERT_FALSE(traces.empty());
  EXPECT_EQ(traces.back().traces.resource_spans(0).scope_spans(0).scope().name(), "jvmsight");
}

// A contended monitor wait longer than contended_span_min_ms arrives as one
// monitor.contended_wait span naming the lock class and the waiting
// thread, as long as the fixture itself timed around its synchronized block.
TEST_P(OtlpPush, LongContendedWaitArrivesAsSpan) {
  namespace tpb = opentelemetry::proto::trace::v1;
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "LongContendedWait", push_env(*receiver, protocol()), {}, {"700"}, "contended_span_min_ms=200");
  ASSERT_GT(jvm.port, 0);
  std::string line = jvm.process->wait_for_line("WAITED ", 60s).value_or("");
  ASSERT_FALSE(line.empty()) << jvm.process->err();
  const size_t ns_at = line.find("ns=");
  ASSERT_NE(ns_at, std::string::npos) << line;
  const double fixture_ns = std::stod(line.substr(ns_at + 3));

  std::vector<tpb::Span> spans;
  for (auto until = std::chrono::steady_clock::now() + 20s;
       spans.empty() && std::chrono::steady_clock::now() < until;) {
    for (const auto& r : receiver->received("traces"))
      for (const auto& rs : r.traces.resource_spans())
        for (const auto& ss : rs.scope_spans())
          for (const auto& s : ss.spans())
            if (s.name() == "monitor.contended_wait") spans.push_back(s);
    if (spans.empty()) std::this_thread::sleep_for(200ms);
  }
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(span_attribute(spans[0], "lock.class"), "LongContendedWait$SlowLock");
  EXPECT_EQ(span_attribute(spans[0], "thread.name"), "long-waiter");
  EXPECT_NEAR(static_cast<double>(spans[0].end_time_unix_nano() - spans[0].start_time_unix_nano()), fixture_ns, 20e6);
}

// A deadlock cycle reaches the collector once, as one ERROR log record
// naming the threads (as ThreadMXBean names them in the fixture) and the
// locks, with the report's stacks in the body, while nobody scrapes.
TEST_P(OtlpPush, DeadlockArrivesAsOneLogRecord) {
  namespace lpb = opentelemetry::proto::logs::v1;
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "Deadlocks", push_env(*receiver, protocol()), {}, {"monitor2"}, "deadlock_check_ms=100");
  ASSERT_GT(jvm.port, 0);
  std::string line = jvm.process->wait_for_line("DEADLOCKED", 30s).value_or("");
  ASSERT_FALSE(line.empty()) << jvm.process->err();
  std::set<std::string> jvm_names;  // "DEADLOCKED names=a,b all=..."
  std::stringstream names(
      line.substr(line.find("names=") + 6, line.find(' ', line.find("names=")) - line.find("names=") - 6));
  for (std::string n; std::getline(names, n, ',');) jvm_names.insert(n);
  ASSERT_EQ(jvm_names.size(), 2u) << line;

  ASSERT_TRUE(receiver->wait_for_more_than(0, 20s, "logs")) << jvm.process->err();
  // Many more checks find the same cycle meanwhile: it must not be sent again.
  std::this_thread::sleep_for(1500ms);
  std::vector<lpb::LogRecord> records;
  for (const auto& r : receiver->received("logs"))
    for (const auto& rl : r.logs.resource_logs())
      for (const auto& sl : rl.scope_logs())
        for (const auto& lr : sl.log_records()) records.push_back(lr);
  ASSERT_EQ(records.size(), 1u);
  const lpb::LogRecord& record = records[0];
  EXPECT_EQ(record.severity_number(), lpb::SEVERITY_NUMBER_ERROR);
  EXPECT_EQ(record.severity_text(), "ERROR");
  EXPECT_EQ(record.event_name(), "jvmsight.deadlock");
  std::set<std::string> pushed_names, lock_classes;
  for (const auto& kv : record.attributes()) {
    if (kv.key() == "jvmsight.deadlock.thread.names")
      for (const auto& v : kv.value().array_value().values()) pushed_names.insert(v.string_value());
    if (kv.key() == "jvmsight.deadlock.lock.classes")
      for (const auto& v : kv.value().array_value().values()) lock_classes.insert(v.string_value());
  }
  EXPECT_EQ(pushed_names, jvm_names);
  EXPECT_EQ(lock_classes, std::set<std::string>{"Deadlocks$Resource"});
  const std::string body = record.body().string_value();
  for (const auto& n : jvm_names) EXPECT_NE(body.find(n), std::string::npos) << body;
  EXPECT_NE(body.find("Deadlocks"), std::string::npos) << body;  // the stacks' frames
}

}  // namespace
}  // namespace jvmsight::test
