// The /gc JSON: pause counts, the span queue, every string escaped.
#include "exporters/reports/gc_report.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(GcExposition, JsonReportEscapesAndListsSpans) {
  GcReport r;
  r.pause_events = true;
  r.pauses = 2;
  r.span_queue_capacity = 8;
  r.spans_dropped = 1;
  r.recent_pauses.push_back({"gc.pause", 10, 20, {{"gc", "G1 \"Young\"\\Gen\n"}, {"cause", "\x01"}}});
  r.queued_spans = r.recent_pauses;
  std::string json = gc_report_json(r);
  EXPECT_NE(json.find("\"pause_events\":true"), std::string::npos) << json;
  EXPECT_NE(json.find("\"span_queue\":{\"size\":1,\"capacity\":8,\"dropped\":1}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"start_unix_ns\":10,\"end_unix_ns\":20"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("gc":"G1 \"Young\"\\Gen\n")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("cause":"\u0001")"), std::string::npos) << json;
}

}  // namespace
}  // namespace jvmsight
