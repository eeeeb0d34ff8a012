#include "exporters/otlp/lock_warning_log.h"

#include "exporters/otlp/deadlock_log.h"

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::logs::v1;
using opentelemetry::proto::common::v1::ArrayValue;

ArrayValue* array_attribute(pb::LogRecord& record, const char* key) {
  return add_attribute(record, key)->mutable_array_value();
}

const char* kind_name(LockKind k) { return k == LockKind::monitor ? "monitor" : "juc"; }

std::string site_of(const FrameRecord& f) {
  if (f.class_name.empty()) return "";
  return f.class_name + "." + f.method + "(" + (f.file.empty() ? "Unknown Source" : f.file) +
         (f.line >= 0 ? ":" + std::to_string(f.line) : "") + ")";
}

// One entry per order, in cycle order: thread i held lock i and waited for
// lock i+1, asking for it at site i.
void fill_inversion(const LockOrderInversion& inv, pb::LogRecord& record) {
  record.set_event_name("jvmsight.lock_order_inversion");
  add_attribute(record, "jvmsight.lock_order.lock_count")->set_int_value(static_cast<int64_t>(inv.orders.size()));
  ArrayValue* classes = array_attribute(record, "jvmsight.lock_order.lock.classes");
  ArrayValue* hashes = array_attribute(record, "jvmsight.lock_order.lock.identity_hashes");
  ArrayValue* names = array_attribute(record, "jvmsight.lock_order.thread.names");
  ArrayValue* ids = array_attribute(record, "jvmsight.lock_order.thread.ids");
  ArrayValue* sites = array_attribute(record, "jvmsight.lock_order.sites");
  for (const LockOrder& o : inv.orders) {
    classes->add_values()->set_string_value(o.from.class_name);
    hashes->add_values()->set_int_value(o.from.identity_hash);
    names->add_values()->set_string_value(o.thread_name);
    ids->add_values()->set_int_value(o.thread);
    sites->add_values()->set_string_value(site_of(o.site));
  }
}

void fill_stuck(const StuckThreadReport& s, pb::LogRecord& record) {
  record.set_event_name("jvmsight.thread_stuck");
  std::string name = s.threads.empty() ? s.thread_name : s.threads.front().name;
  add_attribute(record, "thread.id")->set_int_value(s.thread);
  add_attribute(record, "thread.name")->set_string_value(name);
  add_attribute(record, "jvmsight.stuck.seconds")->set_double_value(s.seconds);
  add_attribute(record, "jvmsight.stuck.lock.kind")->set_string_value(kind_name(s.lock.kind));
  add_attribute(record, "jvmsight.stuck.lock.class")->set_string_value(s.lock.class_name);
  add_attribute(record, "jvmsight.stuck.lock.identity_hash")->set_int_value(s.lock.identity_hash);
  if (!s.owner) return;
  add_attribute(record, "jvmsight.stuck.owner.id")->set_int_value(*s.owner);
  for (const auto& t : s.threads)
    if (t.id == *s.owner) add_attribute(record, "jvmsight.stuck.owner.name")->set_string_value(t.name);
}

}  // namespace

size_t convert_lock_warnings(const std::vector<LockWarningRecord>& warnings,
                             const opentelemetry::proto::resource::v1::Resource& resource,
                             const std::string& scope_version,
                             opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest& out) {
  if (warnings.empty()) return 0;
  pb::ScopeLogs* sl = jvmsight_scope_logs(resource, scope_version, out);
  for (const LockWarningRecord& w : warnings) {
    pb::LogRecord& record = *sl->add_log_records();
    record.set_time_unix_nano(static_cast<uint64_t>(w.unix_ns));
    record.set_observed_time_unix_nano(static_cast<uint64_t>(w.unix_ns));
    record.set_severity_number(pb::SEVERITY_NUMBER_WARN);
    record.set_severity_text("WARN");
    record.mutable_body()->set_string_value(w.text);
    if (w.kind == LockWarningRecord::Kind::inversion)
      fill_inversion(w.inversion, record);
    else
      fill_stuck(w.stuck, record);
  }
  return warnings.size();
}

}  // namespace jvmsight::otlp
