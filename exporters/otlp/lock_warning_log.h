#pragma once
// The warnings before a deadlock, as OTLP log records of severity WARN (a
// formed deadlock is ERROR, deadlock_log.h): a lock-order inversion
// (event jvmsight.lock_order_inversion) and a thread stuck on a lock
// (jvmsight.thread_stuck). The body is the text stderr and /deadlocks show;
// the locks, threads and call sites are attributes a collector can filter
// on. No I/O.
#include <cstdint>
#include <string>
#include <vector>

#include "logs_service.pb.h"
#include "model/lock_order.h"
#include "resource.pb.h"

namespace jvmsight::otlp {

// One warning: either an inversion or a stuck thread, with its rendered text.
struct LockWarningRecord {
  enum class Kind { inversion, stuck } kind = Kind::inversion;
  LockOrderInversion inversion;  // kind inversion
  StuckThreadReport stuck;       // kind stuck
  std::string text;
  int64_t unix_ns = 0;
};

// Appends one ResourceLogs holding a record per warning; returns how many.
size_t convert_lock_warnings(const std::vector<LockWarningRecord>& warnings,
                             const opentelemetry::proto::resource::v1::Resource& resource,
                             const std::string& scope_version,
                             opentelemetry::proto::collector::logs::v1::ExportLogsServiceRequest& out);

}  // namespace jvmsight::otlp
