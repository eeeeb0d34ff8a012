#pragma once
// The exporter-neutral telemetry model. Collectors fill it on the agent
// thread; exporters map it to their wire format. Family names are the
// Prometheus (client_java-compatible) names; other exporters translate.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace jvmsight {

// summary: count and sum only, no quantiles (client_java's jvm_gc_collection_seconds).
enum class MetricType { gauge, counter, histogram, summary };

// The type as the Prometheus text format's # TYPE line names it.
inline const char* type_name(MetricType t) {
  switch (t) {
    case MetricType::counter:
      return "counter";
    case MetricType::histogram:
      return "histogram";
    case MetricType::summary:
      return "summary";
    case MetricType::gauge:
      break;
  }
  return "gauge";
}

struct Label {
  std::string name;
  std::string value;
};

// The same observations in base-2 exponential buckets (OpenTelemetry's
// base2_exponential_bucket_histogram; model/exponential_histogram.h): bucket
// i holds the values in (2^(i / 2^scale), 2^((i + 1) / 2^scale)].
struct ExponentialBuckets {
  int32_t scale = 0;
  uint64_t zero_count = 0;       // values of exactly 0
  int32_t offset = 0;            // the index of counts[0]
  std::vector<uint64_t> counts;  // positive buckets, per bucket, from offset on
};

struct HistogramValue {
  std::vector<double> upper_bounds;     // ascending, +Inf implied after the last
  std::vector<uint64_t> bucket_counts;  // per bucket (not cumulative), upper_bounds.size() + 1
  double sum = 0;
  uint64_t count = 0;
  // Where the producer also aggregated exponentially (GC pauses): what OTLP
  // sends when asked for exponential histograms.
  std::optional<ExponentialBuckets> exponential;
};

struct SummaryValue {
  uint64_t count = 0;
  double sum = 0;
};

struct Sample {
  std::vector<Label> labels;
  // Attributes only OTLP sends: a semantic convention's attribute the
  // client_java family has no label for (jvm.memory.type on a pool). The
  // Prometheus text never shows them, so /metrics stays client_java's.
  std::vector<Label> otlp_attributes;
  double value = 0;          // gauge and counter
  HistogramValue histogram;  // histogram only
  SummaryValue summary;      // summary only
};

struct MetricFamily {
  std::string name;
  std::string help;
  MetricType type = MetricType::gauge;
  std::vector<Sample> samples;
};

// A deque, not a vector: collectors hold the family add_family returned
// while they add the next one, and a deque's push_back never moves the
// elements already there (a vector's may, leaving those references
// dangling).
using MetricFamilies = std::deque<MetricFamily>;

// Small builders, so collectors read as a list of metrics. The agent's
// families come from the metric catalogue (model/metric_catalogue.h:
// add_family(out, name)); this one is for families outside it (the
// injector's own /metrics, tests of the exporters).
inline MetricFamily& add_uncatalogued_family(MetricFamilies& out, std::string name, MetricType type, std::string help) {
  out.push_back(MetricFamily{std::move(name), std::move(help), type, {}});
  return out.back();
}

// The family with this name, or null (for readers of a collection, e.g. tests).
inline const MetricFamily* find_family(const MetricFamilies& families, std::string_view name) {
  for (const auto& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

inline void add_sample(MetricFamily& family, double value, std::vector<Label> labels = {}) {
  Sample s;
  s.labels = std::move(labels);
  s.value = value;
  family.samples.push_back(std::move(s));
}

inline void add_histogram(MetricFamily& family, HistogramValue value, std::vector<Label> labels = {}) {
  Sample s;
  s.labels = std::move(labels);
  s.histogram = std::move(value);
  family.samples.push_back(std::move(s));
}

inline void add_summary(MetricFamily& family, uint64_t count, double sum, std::vector<Label> labels = {}) {
  Sample s;
  s.labels = std::move(labels);
  s.summary = {count, sum};
  family.samples.push_back(std::move(s));
}

}  // namespace jvmsight
