#pragma once
// SpanRecords (model/span.h: GC pauses, long contended monitor waits, any
// producer of the agent's span queue) to an OTLP ExportTraceServiceRequest.
// Generic over the record: name, start/end and string attributes as they
// are. Each record is a root span of its own trace, kind INTERNAL, with
// random ids. No I/O.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "model/span.h"
#include "resource.pb.h"
#include "trace_service.pb.h"

namespace jvmsight::otlp {

// Random, never all-zero ids (the spec's invalid value).
class SpanIds {
 public:
  SpanIds();
  explicit SpanIds(uint64_t seed) : random_(seed) {}
  std::string trace_id();  // 16 bytes
  std::string span_id();   // 8 bytes

 private:
  std::string bytes(size_t n);
  std::mt19937_64 random_;
};

// Appends one ResourceSpans holding `spans`; returns how many were written.
size_t convert_spans(const std::vector<SpanRecord>& spans, const opentelemetry::proto::resource::v1::Resource& resource,
                     const std::string& scope_version, SpanIds& ids,
                     opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest& out);

}  // namespace jvmsight::otlp
