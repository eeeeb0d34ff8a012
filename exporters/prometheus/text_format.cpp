#include "exporters/prometheus/text_format.h"

#include <prometheus/metric_family.h>
#include <prometheus/text_serializer.h>

#include <limits>

namespace jvmsight {
namespace {

bool has_label(const Sample& s, const std::string& name) {
  for (const auto& l : s.labels)
    if (l.name == name) return true;
  return false;
}

prometheus::ClientMetric to_client_metric(const MetricFamily& family, const Sample& s,
                                          const std::vector<Label>& constant_labels) {
  prometheus::ClientMetric m;
  for (const auto& l : s.labels) m.label.push_back({l.name, l.value});
  for (const auto& l : constant_labels)
    if (!has_label(s, l.name)) m.label.push_back({l.name, l.value});
  switch (family.type) {
    case MetricType::gauge:
      m.gauge.value = s.value;
      break;
    case MetricType::counter:
      m.counter.value = s.value;
      break;
    case MetricType::histogram: {
      const HistogramValue& h = s.histogram;
      uint64_t cumulative = 0;
      for (size_t i = 0; i < h.bucket_counts.size(); ++i) {
        cumulative += h.bucket_counts[i];
        double bound = i < h.upper_bounds.size() ? h.upper_bounds[i] : std::numeric_limits<double>::infinity();
        m.histogram.bucket.push_back({cumulative, bound});
      }
      m.histogram.sample_count = h.count;
      m.histogram.sample_sum = h.sum;
      break;
    }
    case MetricType::summary:
      m.summary.sample_count = s.summary.count;
      m.summary.sample_sum = s.summary.sum;
      break;
  }
  return m;
}

// prometheus-cpp 1.0.1 writes HELP as is; the format (0.0.4) escapes a
// backslash as \\ and a newline as \n there, and a raw newline would end the
// line (found by fuzz/prometheus_text_fuzz.cpp).
std::string escape_help(const std::string& help) {
  if (help.find_first_of("\\\n") == std::string::npos) return help;
  std::string out;
  out.reserve(help.size() + 8);
  for (char c : help) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

prometheus::MetricType to_prometheus_type(MetricType t) {
  switch (t) {
    case MetricType::counter:
      return prometheus::MetricType::Counter;
    case MetricType::histogram:
      return prometheus::MetricType::Histogram;
    case MetricType::summary:
      return prometheus::MetricType::Summary;
    default:
      return prometheus::MetricType::Gauge;
  }
}

}  // namespace

std::string to_prometheus_text(const MetricFamilies& families, const std::vector<Label>& constant_labels) {
  std::vector<prometheus::MetricFamily> out;
  out.reserve(families.size());
  for (const auto& f : families) {
    prometheus::MetricFamily pf;
    pf.name = f.name;
    pf.help = escape_help(f.help);
    pf.type = to_prometheus_type(f.type);
    for (const auto& s : f.samples) pf.metric.push_back(to_client_metric(f, s, constant_labels));
    out.push_back(std::move(pf));
  }
  return prometheus::TextSerializer().Serialize(out);
}

}  // namespace jvmsight
