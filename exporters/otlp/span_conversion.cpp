#include "exporters/otlp/span_conversion.h"

#include <algorithm>

namespace jvmsight::otlp {

namespace pb = opentelemetry::proto::trace::v1;

SpanIds::SpanIds() : random_(std::random_device{}()) {}

std::string SpanIds::bytes(size_t n) {
  std::string out(n, '\0');
  do {
    for (size_t i = 0; i < n; i += 8) {
      uint64_t r = random_();
      for (size_t j = 0; j < 8 && i + j < n; ++j) out[i + j] = static_cast<char>(r >> (8 * j));
    }
  } while (std::all_of(out.begin(), out.end(), [](char c) { return c == 0; }));
  return out;
}

std::string SpanIds::trace_id() { return bytes(16); }
std::string SpanIds::span_id() { return bytes(8); }

size_t convert_spans(const std::vector<SpanRecord>& spans, const opentelemetry::proto::resource::v1::Resource& resource,
                     const std::string& scope_version, SpanIds& ids,
                     opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest& out) {
  if (spans.empty()) return 0;
  pb::ResourceSpans* rs = out.add_resource_spans();
  *rs->mutable_resource() = resource;
  pb::ScopeSpans* ss = rs->add_scope_spans();
  ss->mutable_scope()->set_name("jvmsight");
  ss->mutable_scope()->set_version(scope_version);
  for (const SpanRecord& record : spans) {
    pb::Span* span = ss->add_spans();
    span->set_trace_id(ids.trace_id());
    span->set_span_id(ids.span_id());
    span->set_name(record.name);
    span->set_kind(pb::Span::SPAN_KIND_INTERNAL);
    span->set_start_time_unix_nano(static_cast<uint64_t>(std::max<int64_t>(0, record.start_unix_ns)));
    // A wall clock stepped back mid-span must not give an end before the start.
    span->set_end_time_unix_nano(
        static_cast<uint64_t>(std::max<int64_t>({0, record.start_unix_ns, record.end_unix_ns})));
    for (const Label& a : record.attributes) {
      auto* kv = span->add_attributes();
      kv->set_key(a.name);
      kv->mutable_value()->set_string_value(a.value);
    }
  }
  return spans.size();
}

}  // namespace jvmsight::otlp
