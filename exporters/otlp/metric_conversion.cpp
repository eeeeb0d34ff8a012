#include "exporters/otlp/metric_conversion.h"

#include <cmath>
#include <optional>
#include <utility>

#include "model/exponential_histogram.h"
#include "model/metric_catalogue.h"

namespace jvmsight::otlp {
namespace {

namespace pb = opentelemetry::proto::metrics::v1;
using opentelemetry::proto::common::v1::KeyValue;

using Attributes = MetricConverter::Attributes;

// The sample's labels as OTLP attributes; nullopt when the sample is not
// sent (a label value with no place in the convention).
std::optional<Attributes> attributes_of(const std::vector<Label>& labels, const std::vector<Label>& otlp_attributes,
                                        const OtlpName& name) {
  Attributes out;
  for (const auto& label : labels) {
    MetricConverter::Attribute kv{label.name, label.value};
    for (const auto& rename : name.attributes) {
      if (rename.label != label.name) continue;
      auto value = attribute_value(rename.style, label.value);
      if (!value) return std::nullopt;
      kv = {rename.attribute, *value, rename.style == ValueStyle::boolean};
    }
    out.push_back(std::move(kv));
  }
  for (const auto& extra : otlp_attributes) out.push_back({extra.name, extra.value});
  return out;
}

void add_attributes(const Attributes& attributes, google::protobuf::RepeatedPtrField<KeyValue>& out) {
  for (const auto& a : attributes) {
    KeyValue* kv = out.Add();
    kv->set_key(a.key);
    if (a.boolean)
      kv->mutable_value()->set_bool_value(a.value == "true");
    else
      kv->mutable_value()->set_string_value(a.value);
  }
}

std::string series_key(const std::string& name, const std::vector<Label>& labels) {
  std::string key = name;
  for (const auto& l : labels) {
    key += '\0';
    key += l.name;
    key += '=';
    key += l.value;
  }
  return key;
}

// A model summary (count and sum) as a histogram without boundaries: one
// bucket holding every observation.
HistogramValue histogram_of(const SummaryValue& s) { return {{}, {s.count}, s.sum, s.count, std::nullopt}; }

// The histogram over coarser boundaries, each one of the model's: bucket
// counts merged, count and sum kept. Boundaries the model lacks cannot be
// merged to: then the model's own are sent.
HistogramValue rebucket(const HistogramValue& v, const std::vector<double>& bounds) {
  if (bounds.empty() || v.upper_bounds.empty() || v.bucket_counts.size() != v.upper_bounds.size() + 1) return v;
  HistogramValue out{bounds, std::vector<uint64_t>(bounds.size() + 1, 0), v.sum, v.count, v.exponential};
  size_t target = 0;  // the coarse bucket the next model bucket falls in
  for (size_t i = 0; i < v.bucket_counts.size(); ++i) {
    // Model bucket i is (upper_bounds[i-1], upper_bounds[i]]; it falls in
    // the first coarse bucket whose bound is at least upper_bounds[i].
    if (i < v.upper_bounds.size()) {
      while (target < bounds.size() && bounds[target] < v.upper_bounds[i]) {
        if (i == 0 || bounds[target] != v.upper_bounds[i - 1]) return v;  // not one of the model's bounds
        ++target;
      }
    } else {
      while (target < bounds.size()) {
        if (bounds[target] != v.upper_bounds.back()) return v;
        ++target;
      }
    }
    out.bucket_counts[target] += v.bucket_counts[i];
  }
  return out;
}

template <class Point>
void set_value(Point& p, double value, bool integer) {
  if (integer)
    p.set_as_int(std::llround(value));
  else
    p.set_as_double(value);
}

}  // namespace

MetricConverter::MetricConverter(TemporalityPreference preference, int64_t start_unix_ns, std::string scope_version,
                                 HistogramAggregation aggregation)
    : preference_(preference),
      aggregation_(aggregation),
      start_unix_ns_(start_unix_ns),
      scope_version_(std::move(scope_version)) {}

bool MetricConverter::delta_for(MetricType type) const {
  const bool histogram = type == MetricType::histogram || type == MetricType::summary;
  if (preference_ == TemporalityPreference::delta) return type == MetricType::counter || histogram;
  if (preference_ == TemporalityPreference::lowmemory) return histogram;
  return false;
}

MetricConverter::Previous* MetricConverter::previous(const std::string& key, bool& first) {
  auto [it, inserted] = previous_.try_emplace(key);
  first = inserted;
  return &it->second;
}

// One data point, of the metric's instrument. prev: the series' previous
// values when its temporality is delta (first: none yet), else null.
void MetricConverter::add_point(pb::Metric& metric, const OtlpName& name, const Sample& sample, bool summary,
                                const Attributes& attributes, Previous* prev, bool first, int64_t now_unix_ns) {
  const int64_t start = (prev && !first) ? prev->time_unix_ns : start_unix_ns_;
  const auto temporality = prev ? pb::AGGREGATION_TEMPORALITY_DELTA : pb::AGGREGATION_TEMPORALITY_CUMULATIVE;
  switch (name.instrument) {
    case Instrument::gauge: {
      auto* p = metric.mutable_gauge()->add_data_points();
      add_attributes(attributes, *p->mutable_attributes());
      p->set_time_unix_nano(now_unix_ns);
      set_value(*p, sample.value, name.integer);
      break;
    }
    case Instrument::updown_sum:
    case Instrument::monotonic_sum: {
      auto* sum = metric.mutable_sum();
      sum->set_is_monotonic(name.instrument == Instrument::monotonic_sum);
      sum->set_aggregation_temporality(temporality);
      auto* p = sum->add_data_points();
      add_attributes(attributes, *p->mutable_attributes());
      p->set_start_time_unix_nano(start);
      p->set_time_unix_nano(now_unix_ns);
      // Delta: this interval's change; a value below the previous one means
      // the source restarted, and the whole value is this interval's.
      double value = sample.value;
      if (prev) {
        if (!first && value >= prev->value) value -= prev->value;
        prev->value = sample.value;
      }
      set_value(*p, value, name.integer);
      break;
    }
    case Instrument::histogram:
      if (!summary && sample.histogram.exponential && aggregation_ == HistogramAggregation::base2_exponential) {
        add_exponential_point(*metric.mutable_exponential_histogram(), sample.histogram, attributes, temporality, start,
                              prev, first, now_unix_ns);
        break;
      }
      add_histogram_point(*metric.mutable_histogram(),
                          summary ? histogram_of(sample.summary) : rebucket(sample.histogram, name.boundaries),
                          attributes, temporality, start, prev, first, now_unix_ns);
      break;
  }
  if (prev) prev->time_unix_ns = now_unix_ns;
}

void MetricConverter::add_histogram_point(pb::Histogram& h, const HistogramValue& v, const Attributes& attributes,
                                          pb::AggregationTemporality temporality, int64_t start, Previous* prev,
                                          bool first, int64_t now_unix_ns) {
  h.set_aggregation_temporality(temporality);
  auto* p = h.add_data_points();
  add_attributes(attributes, *p->mutable_attributes());
  p->set_start_time_unix_nano(start);
  p->set_time_unix_nano(now_unix_ns);
  for (double b : v.upper_bounds) p->add_explicit_bounds(b);
  // Both the model and OTLP keep per-bucket counts (not cumulative).
  const bool reset = prev && !first && (v.count < prev->count || v.bucket_counts.size() != prev->buckets.size());
  const bool subtract = prev && !first && !reset;
  for (size_t i = 0; i < v.bucket_counts.size(); ++i)
    p->add_bucket_counts(v.bucket_counts[i] - (subtract ? prev->buckets[i] : 0));
  p->set_count(v.count - (subtract ? prev->count : 0));
  p->set_sum(v.sum - (subtract ? prev->sum : 0));
  if (prev) {
    prev->buckets = v.bucket_counts;
    prev->count = v.count;
    prev->sum = v.sum;
  }
}

// Cumulative: the buckets as the producer holds them. Delta: what arrived
// since the previous point, at the current scale (a cumulative aggregation's
// scale only goes down, so the previous state can always be merged to it);
// a series that restarted sends everything it holds.
void MetricConverter::add_exponential_point(pb::ExponentialHistogram& h, const HistogramValue& v,
                                            const Attributes& attributes, pb::AggregationTemporality temporality,
                                            int64_t start, Previous* prev, bool first, int64_t now_unix_ns) {
  h.set_aggregation_temporality(temporality);
  auto* p = h.add_data_points();
  add_attributes(attributes, *p->mutable_attributes());
  p->set_start_time_unix_nano(start);
  p->set_time_unix_nano(now_unix_ns);
  const ExponentialBuckets& now = *v.exponential;
  ExponentialBuckets delta;
  const bool subtracted = prev && !first && v.count >= prev->count && subtract(now, prev->exponential, delta);
  const ExponentialBuckets& b = subtracted ? delta : now;
  p->set_count(v.count - (subtracted ? prev->count : 0));
  p->set_sum(v.sum - (subtracted ? prev->sum : 0));
  p->set_scale(b.scale);
  p->set_zero_count(b.zero_count);
  p->mutable_positive()->set_offset(b.offset);
  for (uint64_t c : b.counts) p->mutable_positive()->add_bucket_counts(c);
  if (prev) {
    prev->exponential = now;
    prev->count = v.count;
    prev->sum = v.sum;
  }
}

size_t MetricConverter::convert(const MetricFamilies& families, int64_t now_unix_ns,
                                const opentelemetry::proto::resource::v1::Resource& resource,
                                opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceRequest& out) {
  pb::ResourceMetrics* rm = out.add_resource_metrics();
  *rm->mutable_resource() = resource;
  pb::ScopeMetrics* sm = rm->add_scope_metrics();
  sm->mutable_scope()->set_name("jvmsight");
  sm->mutable_scope()->set_version(scope_version_);
  size_t points = 0;
  // Each OTLP name once, from the family the catalogue lists first (whatever
  // order the collectors emitted them in): jvmsight_threads_state_by_daemon
  // before jvm_threads_state, 1.x names before 0.x.
  std::map<std::string, std::pair<size_t, const MetricFamily*>> source;
  for (const MetricFamily& family : families) {
    if (family.samples.empty()) continue;
    const std::string name = otlp_of(family.name).name;
    const size_t rank = catalogue_rank(family.name);
    auto [it, inserted] = source.try_emplace(name, rank, &family);
    if (!inserted && rank < it->second.first) it->second = {rank, &family};
  }

  for (const MetricFamily& family : families) {
    if (family.samples.empty()) continue;
    const OtlpName& name = otlp_of(family.name);
    if (name.name.empty() || source[name.name].second != &family) continue;
    const bool delta = delta_for(family.type);
    pb::Metric* metric = sm->add_metrics();
    metric->set_name(name.name);
    metric->set_description(family.help);
    metric->set_unit(name.unit);
    for (const Sample& sample : family.samples) {
      const auto attributes = attributes_of(sample.labels, sample.otlp_attributes, name);
      if (!attributes || (name.defined_only && sample.value < 0)) continue;
      bool first = true;
      Previous* prev = delta ? previous(series_key(family.name, sample.labels), first) : nullptr;
      add_point(*metric, name, sample, family.type == MetricType::summary, *attributes, prev, first, now_unix_ns);
      ++points;
    }
  }
  // A family whose every sample was left out leaves an empty metric behind.
  for (int i = sm->metrics_size() - 1; i >= 0; --i) {
    const pb::Metric& m = sm->metrics(i);
    bool empty = m.gauge().data_points_size() + m.sum().data_points_size() + m.histogram().data_points_size() +
                     m.exponential_histogram().data_points_size() ==
                 0;
    if (empty) sm->mutable_metrics()->DeleteSubrange(i, 1);
  }
  if (points == 0) out.mutable_resource_metrics()->RemoveLast();
  return points;
}

}  // namespace jvmsight::otlp
