#include "exporters/reports/gc_report.h"

#include "exporters/json/json_writer.h"

namespace jvmsight {
namespace {

void write_spans(JsonWriter& w, const std::vector<SpanRecord>& spans) {
  w.begin_array();
  for (const auto& s : spans) {
    w.begin_object().key("name").value(s.name);
    w.key("start_unix_ns").value(s.start_unix_ns).key("end_unix_ns").value(s.end_unix_ns);
    w.key("attributes").begin_object();
    for (const auto& a : s.attributes) w.key(a.name).value(a.value);
    w.end_object().end_object();
  }
  w.end_array();
}

}  // namespace

std::string gc_report_json(const GcReport& r) {
  JsonWriter w;
  w.begin_object();
  w.key("pause_events").value(r.pause_events).key("notifications").value(r.notifications);
  w.key("pauses").value(r.pauses).key("span_min_ns").value(r.span_min_ns);
  w.key("span_queue").begin_object();
  w.key("size").value(r.queued_spans.size()).key("capacity").value(r.span_queue_capacity);
  w.key("dropped").value(r.spans_dropped).end_object();
  w.key("recent_pauses");
  write_spans(w, r.recent_pauses);
  w.key("spans");
  write_spans(w, r.queued_spans);
  w.end_object();
  return std::move(w).finish();
}

}  // namespace jvmsight
