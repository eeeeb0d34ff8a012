// The warnings before a deadlock reach a real OTLP receiver as WARN log
// records, once each: lock-order inversions (tests/java/LockOrders.java:
// 5 scenarios the JVM's own view calls inversions) and threads stuck on a
// lock (tests/java/StuckThreads.java). The conversion is the agent's own,
// not the JDK's: on JDK 17 only (docs/TESTING.md), over gRPC.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <thread>

#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

namespace lpb = opentelemetry::proto::logs::v1;

std::vector<lpb::LogRecord> records_of(const OtlpReceiver& receiver) {
  std::vector<lpb::LogRecord> out;
  for (const auto& r : receiver.received("logs"))
    for (const auto& rl : r.logs.resource_logs())
      for (const auto& sl : rl.scope_logs())
        for (const auto& lr : sl.log_records()) out.push_back(lr);
  return out;
}

std::string string_attribute(const lpb::LogRecord& r, const std::string& key) {
  for (const auto& kv : r.attributes())
    if (kv.key() == key) return kv.value().string_value();
  return "";
}

// Waits until `count` records arrived, then a moment more: none may follow.
std::vector<lpb::LogRecord> settled(const OtlpReceiver& receiver, size_t count) {
  for (auto until = std::chrono::steady_clock::now() + 30s;
       std::chrono::steady_clock::now() < until && records_of(receiver).size() < count;)
    std::this_thread::sleep_for(100ms);
  std::this_thread::sleep_for(1500ms);
  return records_of(receiver);
}

TEST(LockWarningPush, EachInversionArrivesOnceAsAWarnRecord) {
  auto receiver = start_receiver("grpc");
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk17(), "LockOrders", push_env(*receiver, "grpc"));
  ASSERT_GT(jvm.port, 0);
  auto done = jvm.process->wait_for_line("DONE ", 120s);
  ASSERT_TRUE(done) << jvm.process->err();
  std::string expected = done->substr(done->find("inversions=") + 11);
  expected = expected.substr(0, expected.find(' '));
  const size_t count = static_cast<size_t>(std::count(expected.begin(), expected.end(), ',') + 1);
  auto records = settled(*receiver, count);
  ASSERT_EQ(records.size(), count) << jvm.process->err();
  std::set<std::string> sites;
  for (const auto& r : records) {
    EXPECT_EQ(r.severity_number(), lpb::SEVERITY_NUMBER_WARN);
    EXPECT_EQ(r.severity_text(), "WARN");
    EXPECT_EQ(r.event_name(), "jvmsight.lock_order_inversion");
    EXPECT_NE(r.body().string_value().find("Lock-order inversion of 2 locks"), std::string::npos);
    for (const auto& kv : r.attributes())
      if (kv.key() == "jvmsight.lock_order.sites")
        for (const auto& v : kv.value().array_value().values()) sites.insert(v.string_value().substr(0, 25));
  }
  // Both call sites of the monitor inversion, as the JVM's stack names them.
  EXPECT_TRUE(sites.count("LockOrders.abMonitor(Lock")) << testing::PrintToString(sites);
  EXPECT_TRUE(sites.count("LockOrders.baMonitor(Lock")) << testing::PrintToString(sites);
}

TEST(LockWarningPush, EachStuckThreadArrivesOnceAsAWarnRecord) {
  auto receiver = start_receiver("grpc");
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk17(), "StuckThreads", push_env(*receiver, "grpc"), {}, {}, "stuck_threshold_ms=2000");
  ASSERT_GT(jvm.port, 0);
  auto records = settled(*receiver, 2);
  ASSERT_EQ(records.size(), 2u) << jvm.process->err();
  std::set<std::string> threads, owners;
  for (const auto& r : records) {
    EXPECT_EQ(r.severity_number(), lpb::SEVERITY_NUMBER_WARN);
    EXPECT_EQ(r.event_name(), "jvmsight.thread_stuck");
    threads.insert(string_attribute(r, "thread.name"));
    owners.insert(string_attribute(r, "jvmsight.stuck.owner.name"));
    // The body has both stacks: the waiter's and its lock owner's.
    EXPECT_NE(r.body().string_value().find("StuckThreads.awaitRelease"), std::string::npos) << r.body().string_value();
  }
  EXPECT_EQ(threads, (std::set<std::string>{"waiter-m", "waiter-j"}));
  EXPECT_EQ(owners, (std::set<std::string>{"holder-m", "holder-j"}));
}

}  // namespace
}  // namespace jvmsight::test
