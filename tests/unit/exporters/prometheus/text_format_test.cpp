// The model in the Prometheus text exposition format: types, labels,
// escapes, client_java's summaries and cumulative histogram buckets.
#include "exporters/prometheus/text_format.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(PrometheusText, GaugesCountersAndLabels) {
  MetricFamilies f;
  add_sample(add_uncatalogued_family(f, "jvm_threads_current", MetricType::gauge, "Current thread count"), 12);
  auto& st = add_uncatalogued_family(f, "jvm_threads_state", MetricType::gauge, "by state");
  add_sample(st, 3, {{"state", "BLOCKED"}});
  add_sample(add_uncatalogued_family(f, "jvm_threads_started_total", MetricType::counter, "started"), 40);
  std::string text = to_prometheus_text(f);
  EXPECT_NE(text.find("# TYPE jvm_threads_current gauge\njvm_threads_current 12\n"), std::string::npos) << text;
  EXPECT_NE(text.find("jvm_threads_state{state=\"BLOCKED\"} 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("# TYPE jvm_threads_started_total counter\njvm_threads_started_total 40\n"), std::string::npos)
      << text;
}

TEST(PrometheusText, LabelValuesAreEscaped) {
  MetricFamilies f;
  add_sample(add_uncatalogued_family(f, "x", MetricType::gauge, "h"), 1, {{"name", "a\"b\\c\nd"}});
  EXPECT_NE(to_prometheus_text(f).find("x{name=\"a\\\"b\\\\c\\nd\"} 1"), std::string::npos);
}

// A raw newline in HELP would end the line and
// make the rest a bogus sample (fuzz/prometheus_text_fuzz.cpp tries).
TEST(PrometheusText, HelpNewlinesAndBackslashesAreEscaped) {
  MetricFamilies f;
  add_sample(add_uncatalogued_family(f, "x", MetricType::gauge, "one\ntwo\\three"), 1);
  std::string text = to_prometheus_text(f);
  EXPECT_NE(text.find("# HELP x one\\ntwo\\\\three\n# TYPE x gauge\n"), std::string::npos) << text;
}

TEST(PrometheusText, HistogramBucketsAreCumulativeWithInf) {
  MetricFamilies f;
  auto& h = add_uncatalogued_family(f, "pause_seconds", MetricType::histogram, "h");
  Sample s;
  s.histogram.upper_bounds = {0.01, 0.1};
  s.histogram.bucket_counts = {2, 3, 1};
  s.histogram.count = 6;
  s.histogram.sum = 0.5;
  h.samples.push_back(s);
  std::string text = to_prometheus_text(f);
  EXPECT_NE(text.find("pause_seconds_bucket{le=\"0.01\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("pause_seconds_bucket{le=\"0.1\"} 5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("pause_seconds_bucket{le=\"+Inf\"} 6\n"), std::string::npos) << text;
  EXPECT_NE(text.find("pause_seconds_count 6\n"), std::string::npos) << text;
  EXPECT_NE(text.find("pause_seconds_sum 0.5\n"), std::string::npos) << text;
}

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

}  // namespace
}  // namespace jvmsight
