// The GC model in its wire formats: summaries in the Prometheus text format
// (client_java's jvm_gc_collection_seconds) and the /gc JSON.
#include <gtest/gtest.h>

#include "exporters/prometheus/text_format.h"
#include "exporters/reports/gc_report.h"

namespace jvmsight {
namespace {

TEST(GcExposition, SummaryHasCountAndSumOnlyLikeClientJava) {
  MetricFamilies f;
  auto& s = add_uncatalogued_family(f, "jvm_gc_collection_seconds", MetricType::summary,
                                    "Time spent in a given JVM garbage collector in seconds.");
  add_summary(s, 12, 0.345, {{"gc", "G1 Young Generation"}});
  std::string text = to_prometheus_text(f);
  EXPECT_NE(text.find("# TYPE jvm_gc_collection_seconds summary"), std::string::npos) << text;
  EXPECT_NE(text.find("jvm_gc_collection_seconds_count{gc=\"G1 Young Generation\"} 12"), std::string::npos) << text;
  EXPECT_NE(text.find("jvm_gc_collection_seconds_sum{gc=\"G1 Young Generation\"} 0.345"), std::string::npos) << text;
  EXPECT_EQ(text.find("quantile"), std::string::npos) << text;
}

TEST(GcExposition, HistogramBucketsAreCumulative) {
  MetricFamilies f;
  HistogramValue h{{0.001, 0.01}, {2, 1, 1}, 0.5, 4, std::nullopt};
  add_histogram(add_uncatalogued_family(f, "jvmsight_gc_pause_seconds", MetricType::histogram, "p"), h,
                {{"gc", "Copy"}});
  std::string text = to_prometheus_text(f);
  EXPECT_NE(text.find("jvmsight_gc_pause_seconds_bucket{gc=\"Copy\",le=\"0.001\"} 2"), std::string::npos) << text;
  EXPECT_NE(text.find("jvmsight_gc_pause_seconds_bucket{gc=\"Copy\",le=\"0.01\"} 3"), std::string::npos) << text;
  EXPECT_NE(text.find("jvmsight_gc_pause_seconds_bucket{gc=\"Copy\",le=\"+Inf\"} 4"), std::string::npos) << text;
}

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
