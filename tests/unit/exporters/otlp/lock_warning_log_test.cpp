// The warnings before a deadlock -> OTLP log records of severity WARN (a
// formed deadlock is ERROR): the text as body, locks, threads and sites as
// attributes.
#include "exporters/otlp/lock_warning_log.h"

#include <gtest/gtest.h>

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::logs::v1;
using Request = opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest;

const opentelemetry::proto::common::v1::AnyValue* attribute(const pb::LogRecord& r, const std::string& key) {
  for (const auto& kv : r.attributes())
    if (kv.key() == key) return &kv.value();
  return nullptr;
}

LockWarningRecord inversion() {
  LockWarningRecord w;
  LockId a{0x11, "Bank$Left", LockKind::monitor}, b{0x22, "Bank$Right", LockKind::monitor};
  w.inversion.orders = {{a, b, 7, "teller-1", {"Bank", "debit", "Bank.java", 40, false, {}}},
                        {b, a, 8, "teller-2", {"Bank", "credit", "", -1, false, {}}}};
  w.text = "Lock-order inversion of 2 locks";
  w.unix_ns = 1'700'000'000'000'000'000;
  return w;
}

LockWarningRecord stuck() {
  LockWarningRecord w;
  w.kind = LockWarningRecord::Kind::stuck;
  w.stuck.thread = 3;
  w.stuck.lock = {0x33, "java.util.concurrent.locks.ReentrantLock$NonfairSync", LockKind::juc};
  w.stuck.owner = 4;
  w.stuck.seconds = 61.5;
  ThreadRecord waiter, owner;
  waiter.id = 3;
  waiter.name = "waiter";
  owner.id = 4;
  owner.name = "holder";
  w.stuck.threads = {waiter, owner};
  w.text = "thread \"waiter\" #3 has waited";
  return w;
}

TEST(LockWarningLog, InversionIsOneWarnRecordWithItsOrders) {
  Request out;
  ASSERT_EQ(convert_lock_warnings({inversion()}, {}, "9.9", out), 1u);
  const pb::LogRecord& r = out.resource_logs(0).scope_logs(0).log_records(0);
  EXPECT_EQ(out.resource_logs(0).scope_logs(0).scope().name(), "jvmsight");
  EXPECT_EQ(r.severity_number(), pb::SEVERITY_NUMBER_WARN);
  EXPECT_EQ(r.severity_text(), "WARN");
  EXPECT_EQ(r.event_name(), "jvmsight.lock_order_inversion");
  EXPECT_EQ(r.body().string_value(), inversion().text);
  EXPECT_EQ(r.time_unix_nano(), 1'700'000'000'000'000'000ull);
  ASSERT_NE(attribute(r, "jvmsight.lock_order.lock_count"), nullptr);
  EXPECT_EQ(attribute(r, "jvmsight.lock_order.lock_count")->int_value(), 2);
  const auto* sites = attribute(r, "jvmsight.lock_order.sites");
  ASSERT_NE(sites, nullptr);
  EXPECT_EQ(sites->array_value().values(0).string_value(), "Bank.debit(Bank.java:40)");
  EXPECT_EQ(sites->array_value().values(1).string_value(), "Bank.credit(Unknown Source)");
  const auto* names = attribute(r, "jvmsight.lock_order.thread.names");
  ASSERT_NE(names, nullptr);
  EXPECT_EQ(names->array_value().values(1).string_value(), "teller-2");
  const auto* classes = attribute(r, "jvmsight.lock_order.lock.classes");
  ASSERT_NE(classes, nullptr);
  EXPECT_EQ(classes->array_value().values(1).string_value(), "Bank$Right");
  EXPECT_EQ(attribute(r, "jvmsight.lock_order.lock.identity_hashes")->array_value().values(0).int_value(), 0x11);
}

TEST(LockWarningLog, StuckThreadIsOneWarnRecordNamingThreadLockAndOwner) {
  Request out;
  ASSERT_EQ(convert_lock_warnings({stuck(), inversion()}, {}, "v", out), 2u);
  const pb::LogRecord& r = out.resource_logs(0).scope_logs(0).log_records(0);
  EXPECT_EQ(r.severity_number(), pb::SEVERITY_NUMBER_WARN);
  EXPECT_EQ(r.event_name(), "jvmsight.thread_stuck");
  EXPECT_EQ(attribute(r, "thread.id")->int_value(), 3);
  EXPECT_EQ(attribute(r, "thread.name")->string_value(), "waiter");
  EXPECT_DOUBLE_EQ(attribute(r, "jvmsight.stuck.seconds")->double_value(), 61.5);
  EXPECT_EQ(attribute(r, "jvmsight.stuck.lock.kind")->string_value(), "juc");
  EXPECT_EQ(attribute(r, "jvmsight.stuck.lock.class")->string_value(),
            "java.util.concurrent.locks.ReentrantLock$NonfairSync");
  EXPECT_EQ(attribute(r, "jvmsight.stuck.owner.id")->int_value(), 4);
  EXPECT_EQ(attribute(r, "jvmsight.stuck.owner.name")->string_value(), "holder");
  EXPECT_EQ(out.resource_logs(0).scope_logs(0).log_records(1).event_name(), "jvmsight.lock_order_inversion");
}

TEST(LockWarningLog, NothingForNoWarnings) {
  Request out;
  EXPECT_EQ(convert_lock_warnings({}, {}, "v", out), 0u);
  EXPECT_EQ(out.resource_logs_size(), 0);
}

}  // namespace
}  // namespace jvmsight::otlp
