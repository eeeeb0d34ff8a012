#pragma once
// A confirmed deadlock cycle (model/deadlock.h, described by the agent's
// deadlock reports) to an OTLP log record: severity ERROR, the report text
// that /deadlocks and stderr show (threads, locks, stacks) as the body, and
// the threads and locks as attributes a collector can filter on. No I/O.
#include <cstdint>
#include <string>
#include <vector>

#include "logs_service.pb.h"
#include "model/deadlock.h"
#include "resource.pb.h"

namespace jvmsight::otlp {

struct DeadlockRecord {
  DeadlockReport report;
  std::string text;  // the rendered report (threads, locks, stacks)
  int64_t unix_ns = 0;
};

// What every log record of the agent's shares: a new ResourceLogs of this
// resource, and its one ScopeLogs ("jvmsight", the agent's version).
opentelemetry::proto::logs::v1::ScopeLogs* jvmsight_scope_logs(
    const opentelemetry::proto::resource::v1::Resource& resource, const std::string& scope_version,
    opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest& out);
// A new attribute of the record, its value to be set.
opentelemetry::proto::common::v1::AnyValue* add_attribute(opentelemetry::proto::logs::v1::LogRecord& record,
                                                          const char* key);

// Appends one ResourceLogs holding a record per deadlock; returns how many.
size_t convert_deadlocks(const std::vector<DeadlockRecord>& deadlocks,
                         const opentelemetry::proto::resource::v1::Resource& resource, const std::string& scope_version,
                         opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest& out);

}  // namespace jvmsight::otlp
