#include "exporters/json/gc_endpoint.h"

#include <cstdio>

namespace jvmsight {
namespace {

void append_string(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

void append_span(std::string& out, const SpanRecord& s) {
  out += "{\"name\":";
  append_string(out, s.name);
  out += ",\"start_unix_ns\":" + std::to_string(s.start_unix_ns);
  out += ",\"end_unix_ns\":" + std::to_string(s.end_unix_ns);
  out += ",\"attributes\":{";
  for (size_t i = 0; i < s.attributes.size(); ++i) {
    if (i) out += ',';
    append_string(out, s.attributes[i].name);
    out += ':';
    append_string(out, s.attributes[i].value);
  }
  out += "}}";
}

void append_spans(std::string& out, const std::vector<SpanRecord>& spans) {
  out += '[';
  for (size_t i = 0; i < spans.size(); ++i) {
    if (i) out += ',';
    out += "\n  ";
    append_span(out, spans[i]);
  }
  out += ']';
}

}  // namespace

std::string to_json(const GcReport& r) {
  std::string out = "{";
  out += "\"pause_events\":" + std::string(r.pause_events ? "true" : "false");
  out += ",\"notifications\":" + std::string(r.notifications ? "true" : "false");
  out += ",\"pauses\":" + std::to_string(r.pauses);
  out += ",\"span_min_ns\":" + std::to_string(r.span_min_ns);
  out += ",\"span_queue\":{\"size\":" + std::to_string(r.queued_spans.size()) +
         ",\"capacity\":" + std::to_string(r.span_queue_capacity) +
         ",\"dropped\":" + std::to_string(r.spans_dropped) + "}";
  out += ",\n\"recent_pauses\":";
  append_spans(out, r.recent_pauses);
  out += ",\n\"spans\":";
  append_spans(out, r.queued_spans);
  out += "}\n";
  return out;
}

HttpRoute gc_endpoint(GcReportSource source) {
  return {"/gc", [source = std::move(source)](const HttpRequest&) {
            auto report = source();
            if (!report) return HttpResponse{503, "text/plain; charset=utf-8", "JVM busy or exiting; try again\n"};
            return HttpResponse{200, "application/json", to_json(*report)};
          }};
}

}  // namespace jvmsight
