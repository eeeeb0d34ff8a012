#pragma once
// What GET /gc shows: recent pauses and the span queue, in the neutral model.
#include <cstdint>
#include <vector>

#include "model/span.h"

namespace jvmsight {

struct GcReport {
  bool pause_events = false;              // JVM TI GarbageCollectionStart/Finish granted
  bool notifications = false;             // collector/action/cause available
  uint64_t pauses = 0;                    // JVM TI pauses seen since load
  std::vector<SpanRecord> recent_pauses;  // newest last
  std::vector<SpanRecord> queued_spans;   // waiting for an exporter
  size_t span_queue_capacity = 0;
  uint64_t spans_dropped = 0;
  int64_t span_min_ns = 0;
};

}  // namespace jvmsight
