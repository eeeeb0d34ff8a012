// SpanRecord -> OTLP span: any producer's record (GC pause, contended
// monitor wait) as it is: name, times, attributes; random ids; kind
// INTERNAL; nothing for an empty batch.
#include "exporters/otlp/span_conversion.h"

#include <gtest/gtest.h>

#include <set>

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::trace::v1;
using Request = opentelemetry::proto::collector::trace::v1::ExportTraceServiceRequest;

opentelemetry::proto::resource::v1::Resource resource_named(const std::string& service) {
  opentelemetry::proto::resource::v1::Resource r;
  auto* kv = r.add_attributes();
  kv->set_key("service.name");
  kv->mutable_value()->set_string_value(service);
  return r;
}

TEST(SpanConversion, RecordsOfAnyProducerKeepNameTimesAndAttributes) {
  std::vector<SpanRecord> records;
  records.push_back({"gc.pause", 1'700'000'000'000'000'000, 1'700'000'000'004'000'000, {{"gc", "G1 Young"}}});
  records.push_back({"monitor.contended_wait",
                     1'700'000'001'000'000'000,
                     1'700'000'001'250'000'000,
                     {{"lock_class", "java.lang.Object"}, {"thread", "worker-1"}, {"holder", "worker-2"}}});
  Request out;
  SpanIds ids(42);
  ASSERT_EQ(convert_spans(records, resource_named("shop"), "1.2.3", ids, out), 2u);
  ASSERT_EQ(out.resource_spans_size(), 1);
  const auto& rs = out.resource_spans(0);
  EXPECT_EQ(rs.resource().attributes(0).value().string_value(), "shop");
  EXPECT_EQ(rs.scope_spans(0).scope().name(), "jvmsight");
  EXPECT_EQ(rs.scope_spans(0).scope().version(), "1.2.3");
  ASSERT_EQ(rs.scope_spans(0).spans_size(), 2);
  const pb::Span& wait = rs.scope_spans(0).spans(1);
  EXPECT_EQ(wait.name(), "monitor.contended_wait");
  EXPECT_EQ(wait.kind(), pb::Span::SPAN_KIND_INTERNAL);
  EXPECT_EQ(wait.start_time_unix_nano(), 1'700'000'001'000'000'000ull);
  EXPECT_EQ(wait.end_time_unix_nano(), 1'700'000'001'250'000'000ull);
  ASSERT_EQ(wait.attributes_size(), 3);
  EXPECT_EQ(wait.attributes(2).key(), "holder");
  EXPECT_EQ(wait.attributes(2).value().string_value(), "worker-2");
  EXPECT_TRUE(wait.parent_span_id().empty());
}

TEST(SpanConversion, IdsAreRandomValidAndDistinct) {
  std::vector<SpanRecord> records(200, SpanRecord{"gc.pause", 10, 20, {}});
  Request out;
  SpanIds ids;
  convert_spans(records, {}, "v", ids, out);
  std::set<std::string> traces, spans;
  for (const auto& s : out.resource_spans(0).scope_spans(0).spans()) {
    ASSERT_EQ(s.trace_id().size(), 16u);
    ASSERT_EQ(s.span_id().size(), 8u);
    EXPECT_NE(s.trace_id(), std::string(16, '\0'));
    EXPECT_NE(s.span_id(), std::string(8, '\0'));
    traces.insert(s.trace_id());
    spans.insert(s.span_id());
  }
  EXPECT_EQ(traces.size(), records.size());
  EXPECT_EQ(spans.size(), records.size());
  // Two generators do not repeat each other's ids.
  SpanIds a, b;
  EXPECT_NE(a.trace_id(), b.trace_id());
}

TEST(SpanConversion, EndNeverBeforeStart) {
  Request out;
  SpanIds ids(1);
  convert_spans({{"gc.pause", 5'000, 4'000, {}}}, {}, "v", ids, out);
  const pb::Span& s = out.resource_spans(0).scope_spans(0).spans(0);
  EXPECT_EQ(s.start_time_unix_nano(), 5'000u);
  EXPECT_EQ(s.end_time_unix_nano(), 5'000u);
}

TEST(SpanConversion, NothingForNoSpans) {
  Request out;
  SpanIds ids(1);
  EXPECT_EQ(convert_spans({}, {}, "v", ids, out), 0u);
  EXPECT_EQ(out.resource_spans_size(), 0);
}

}  // namespace
}  // namespace jvmsight::otlp
