#include "exporters/otlp/deadlock_log.h"

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::logs::v1;
using opentelemetry::proto::common::v1::ArrayValue;
using opentelemetry::proto::common::v1::KeyValue;

ArrayValue* array_attribute(pb::LogRecord& record, const char* key) {
  return add_attribute(record, key)->mutable_array_value();
}

void fill(const DeadlockRecord& d, pb::LogRecord& record) {
  const DeadlockCycle& cycle = d.report.cycle;
  record.set_time_unix_nano(static_cast<uint64_t>(d.unix_ns));
  record.set_observed_time_unix_nano(static_cast<uint64_t>(d.unix_ns));
  record.set_severity_number(pb::SEVERITY_NUMBER_ERROR);
  record.set_severity_text("ERROR");
  record.set_event_name("jvmsight.deadlock");
  record.mutable_body()->set_string_value(d.text);
  add_attribute(record, "jvmsight.deadlock.thread_count")->set_int_value(static_cast<int64_t>(cycle.edges.size()));
  add_attribute(record, "jvmsight.deadlock.monitor_only")->set_bool_value(cycle.monitor_only());
  // One entry per edge, in cycle order: thread i waits for lock i, held by
  // thread i+1.
  ArrayValue* names = array_attribute(record, "jvmsight.deadlock.thread.names");
  ArrayValue* ids = array_attribute(record, "jvmsight.deadlock.thread.ids");
  ArrayValue* locks = array_attribute(record, "jvmsight.deadlock.lock.classes");
  ArrayValue* hashes = array_attribute(record, "jvmsight.deadlock.lock.identity_hashes");
  for (const WaitEdge& e : cycle.edges) {
    names->add_values()->set_string_value(e.waiter_name);
    ids->add_values()->set_int_value(static_cast<int64_t>(e.waiter));
    locks->add_values()->set_string_value(e.lock.class_name);
    hashes->add_values()->set_int_value(e.lock.identity_hash);
  }
}

}  // namespace

pb::ScopeLogs* jvmsight_scope_logs(const opentelemetry::proto::resource::v1::Resource& resource,
                                   const std::string& scope_version,
                                   opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest& out) {
  pb::ResourceLogs* rl = out.add_resource_logs();
  *rl->mutable_resource() = resource;
  pb::ScopeLogs* sl = rl->add_scope_logs();
  sl->mutable_scope()->set_name("jvmsight");
  sl->mutable_scope()->set_version(scope_version);
  return sl;
}

opentelemetry::proto::common::v1::AnyValue* add_attribute(pb::LogRecord& record, const char* key) {
  KeyValue* kv = record.add_attributes();
  kv->set_key(key);
  return kv->mutable_value();
}

size_t convert_deadlocks(const std::vector<DeadlockRecord>& deadlocks,
                         const opentelemetry::proto::resource::v1::Resource& resource, const std::string& scope_version,
                         opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest& out) {
  if (deadlocks.empty()) return 0;
  pb::ScopeLogs* sl = jvmsight_scope_logs(resource, scope_version, out);
  for (const DeadlockRecord& d : deadlocks) fill(d, *sl->add_log_records());
  return deadlocks.size();
}

}  // namespace jvmsight::otlp
