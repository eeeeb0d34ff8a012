// A confirmed deadlock -> one OTLP log record: severity ERROR, the report
// text as body, the cycle's threads and locks as attributes in cycle order.
#include "exporters/otlp/deadlock_log.h"

#include <gtest/gtest.h>

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::logs::v1;
using Request = opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest;

DeadlockRecord two_thread_cycle() {
  DeadlockRecord d;
  WaitEdge a{11, "alpha", {0x1234, "Deadlocks$Resource", LockKind::monitor}, 12, "beta"};
  WaitEdge b{12, "beta", {0x5678, "java.util.concurrent.locks.ReentrantLock$NonfairSync", LockKind::juc}, 11, "alpha"};
  d.report.cycle.edges = {a, b};
  d.text = "\"alpha\" waiting to lock <0x1234> (a Deadlocks$Resource)\n\tat Deadlocks.run(Deadlocks.java:10)\n";
  d.unix_ns = 1'700'000'000'000'000'000;
  return d;
}

const opentelemetry::proto::common::v1::AnyValue* attribute(const pb::LogRecord& r, const std::string& key) {
  for (const auto& kv : r.attributes())
    if (kv.key() == key) return &kv.value();
  return nullptr;
}

TEST(DeadlockLog, OneErrorRecordWithThreadsLocksAndStacks) {
  Request out;
  opentelemetry::proto::resource::v1::Resource resource;
  resource.add_attributes()->set_key("service.name");
  ASSERT_EQ(convert_deadlocks({two_thread_cycle()}, resource, "9.9", out), 1u);
  ASSERT_EQ(out.resource_logs_size(), 1);
  const auto& sl = out.resource_logs(0).scope_logs(0);
  EXPECT_EQ(sl.scope().name(), "jvmsight");
  EXPECT_EQ(sl.scope().version(), "9.9");
  EXPECT_EQ(out.resource_logs(0).resource().attributes(0).key(), "service.name");
  ASSERT_EQ(sl.log_records_size(), 1);
  const pb::LogRecord& r = sl.log_records(0);
  EXPECT_EQ(r.severity_number(), pb::SEVERITY_NUMBER_ERROR);
  EXPECT_EQ(r.severity_text(), "ERROR");
  EXPECT_EQ(r.event_name(), "jvmsight.deadlock");
  EXPECT_EQ(r.time_unix_nano(), 1'700'000'000'000'000'000ull);
  EXPECT_EQ(r.body().string_value(), two_thread_cycle().text);

  const auto* names = attribute(r, "jvmsight.deadlock.thread.names");
  ASSERT_NE(names, nullptr);
  ASSERT_EQ(names->array_value().values_size(), 2);
  EXPECT_EQ(names->array_value().values(0).string_value(), "alpha");
  EXPECT_EQ(names->array_value().values(1).string_value(), "beta");
  const auto* ids = attribute(r, "jvmsight.deadlock.thread.ids");
  ASSERT_NE(ids, nullptr);
  EXPECT_EQ(ids->array_value().values(1).int_value(), 12);
  const auto* locks = attribute(r, "jvmsight.deadlock.lock.classes");
  ASSERT_NE(locks, nullptr);
  EXPECT_EQ(locks->array_value().values(1).string_value(), "java.util.concurrent.locks.ReentrantLock$NonfairSync");
  const auto* hashes = attribute(r, "jvmsight.deadlock.lock.identity_hashes");
  ASSERT_NE(hashes, nullptr);
  EXPECT_EQ(hashes->array_value().values(0).int_value(), 0x1234);
  ASSERT_NE(attribute(r, "jvmsight.deadlock.monitor_only"), nullptr);
  EXPECT_FALSE(attribute(r, "jvmsight.deadlock.monitor_only")->bool_value());
  ASSERT_NE(attribute(r, "jvmsight.deadlock.thread_count"), nullptr);
  EXPECT_EQ(attribute(r, "jvmsight.deadlock.thread_count")->int_value(), 2);
}

TEST(DeadlockLog, NothingForNoDeadlocks) {
  Request out;
  EXPECT_EQ(convert_deadlocks({}, {}, "v", out), 0u);
  EXPECT_EQ(out.resource_logs_size(), 0);
}

}  // namespace
}  // namespace jvmsight::otlp
