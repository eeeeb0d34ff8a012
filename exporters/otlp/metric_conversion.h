#pragma once
// MetricFamilies (the neutral model, cumulative since the agent started) to
// an OTLP ExportMetricsServiceRequest. No I/O. Stateful only for delta
// temporality, which needs the previous values of each series.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "exporters/otlp/otlp_config.h"
#include "metrics_service.pb.h"
#include "model/metric_catalogue.h"
#include "model/telemetry.h"

namespace jvmsight::otlp {

class MetricConverter {
 public:
  // One data point attribute.
  struct Attribute {
    std::string key;
    std::string value;
    bool boolean = false;  // sent as a bool ("true"/"false"), else as a string
  };
  using Attributes = std::vector<Attribute>;

  // start_unix_ns: when the agent started counting (cumulative start time).
  // aggregation: histograms whose model value has exponential buckets are
  // sent as ExponentialHistograms under base2_exponential.
  MetricConverter(TemporalityPreference preference, int64_t start_unix_ns, std::string scope_version,
                  HistogramAggregation aggregation = HistogramAggregation::explicit_buckets);

  // Appends one ResourceMetrics (with `resource`) holding every family.
  // Returns the number of data points written (0: nothing worth sending).
  size_t convert(const MetricFamilies& families, int64_t now_unix_ns,
                 const opentelemetry::proto::resource::v1::Resource& resource,
                 opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest& out);

 private:
  struct Previous {
    int64_t time_unix_ns = 0;
    double value = 0;
    std::vector<uint64_t> buckets;
    uint64_t count = 0;
    double sum = 0;
    ExponentialBuckets exponential;
  };
  // Delta for counters and histograms per the preference (async counters are
  // cumulative under lowmemory, as in the SDKs).
  bool delta_for(MetricType type) const;
  // The series' previous values (for delta), keyed by name and labels.
  Previous* previous(const std::string& key, bool& first);
  // summary: the sample is a model summary, sent as a one-bucket histogram.
  void add_point(opentelemetry::proto::metrics::v1::Metric& metric, const OtlpName& name, const Sample& sample,
                 bool summary, const Attributes& attributes, Previous* prev, bool first, int64_t now_unix_ns);
  void add_histogram_point(opentelemetry::proto::metrics::v1::Histogram& h, const HistogramValue& v,
                           const Attributes& attributes,
                           opentelemetry::proto::metrics::v1::AggregationTemporality temporality, int64_t start,
                           Previous* prev, bool first, int64_t now_unix_ns);
  void add_exponential_point(opentelemetry::proto::metrics::v1::ExponentialHistogram& h, const HistogramValue& v,
                             const Attributes& attributes,
                             opentelemetry::proto::metrics::v1::AggregationTemporality temporality, int64_t start,
                             Previous* prev, bool first, int64_t now_unix_ns);

  TemporalityPreference preference_;
  HistogramAggregation aggregation_;
  int64_t start_unix_ns_;
  std::string scope_version_;
  std::map<std::string, Previous> previous_;
};

}  // namespace jvmsight::otlp
