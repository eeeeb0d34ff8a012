#include "exporters/prometheus/text_format.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace jvmsight {
namespace {

bool has_label(const Sample& s, const std::string& name) {
  for (const auto& l : s.labels)
    if (l.name == name) return true;
  return false;
}

// The format's escapes: a backslash and a newline in HELP; those and a
// double quote in a label value. A raw newline would end the line and make
// the rest a bogus sample (fuzz/prometheus_text_fuzz.cpp tries).
void append_escaped(std::string& out, const std::string& text, bool quote) {
  size_t from = 0;  // the start of the plain run not yet copied: runs go in one copy each
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != '\\' && c != '\n' && !(quote && c == '"')) continue;
    out.append(text, from, i - from);
    out += c == '\n' ? "\\n" : c == '"' ? "\\\"" : "\\\\";
    from = i + 1;
  }
  out.append(text, from, std::string::npos);
}

// A number as std::to_chars writes it: the shortest text that reads back
// as the same value (32 bytes hold any double or uint64_t).
template <class Number>
void append_number(std::string& out, Number n) {
  char buffer[32];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), n);
  out.append(buffer, ec == std::errc() ? end : buffer);
}

// A sample value, with the format's spellings of the special values.
void append_value(std::string& out, double v) {
  if (std::isnan(v))
    out += "NaN";
  else if (std::isinf(v))
    out += v > 0 ? "+Inf" : "-Inf";
  else
    append_number(out, v);
}

// One sample line up to its value: name, suffix, and the labels (the
// sample's, the constant ones it lacks, then `le` for a bucket).
class LineWriter {
 public:
  LineWriter(std::string& out, const MetricFamily& family, const Sample& sample, const std::vector<Label>& constant)
      : out_(out), family_(family), sample_(sample), constant_(constant) {}

  void start(const char* suffix, const double* le = nullptr) {
    out_ += family_.name;
    out_ += suffix;
    char sep = '{';
    auto label = [&](const std::string& name, auto&& write_value) {
      out_ += sep;
      sep = ',';
      out_ += name;
      out_ += "=\"";
      write_value();
      out_ += '"';
    };
    for (const auto& l : sample_.labels) label(l.name, [&] { append_escaped(out_, l.value, true); });
    for (const auto& l : constant_)
      if (!has_label(sample_, l.name)) label(l.name, [&] { append_escaped(out_, l.value, true); });
    if (le != nullptr) label(le_name, [&] { append_value(out_, *le); });
    if (sep == ',') out_ += '}';
    out_ += ' ';
  }

 private:
  inline static const std::string le_name = "le";
  std::string& out_;
  const MetricFamily& family_;
  const Sample& sample_;
  const std::vector<Label>& constant_;
};

void append_sample(std::string& out, const MetricFamily& f, const Sample& s, const std::vector<Label>& constant) {
  LineWriter line(out, f, s, constant);
  switch (f.type) {
    case MetricType::gauge:
    case MetricType::counter:
      line.start("");
      append_value(out, s.value);
      break;
    case MetricType::histogram: {
      const HistogramValue& h = s.histogram;
      const double inf = std::numeric_limits<double>::infinity();
      uint64_t cumulative = 0;
      double last = -inf;
      for (size_t i = 0; i < h.bucket_counts.size(); ++i) {
        cumulative += h.bucket_counts[i];
        last = i < h.upper_bounds.size() ? h.upper_bounds[i] : inf;
        line.start("_bucket", &last);
        append_number(out, cumulative);
        out += '\n';
      }
      if (last != inf) {  // the +Inf bucket is never left out: it holds every observation
        line.start("_bucket", &inf);
        append_number(out, h.count);
        out += '\n';
      }
      line.start("_count");
      append_number(out, h.count);
      out += '\n';
      line.start("_sum");
      append_value(out, h.sum);
      break;
    }
    case MetricType::summary:
      line.start("_count");
      append_number(out, s.summary.count);
      out += '\n';
      line.start("_sum");
      append_value(out, s.summary.sum);
      break;
  }
  out += '\n';
}

}  // namespace

std::string to_prometheus_text(const MetricFamilies& families, const std::vector<Label>& constant_labels) {
  std::string out;
  size_t samples = 0;
  for (const auto& f : families) samples += f.samples.size();
  out.reserve(families.size() * 96 + samples * 64);  // a guess; the string grows past it if need be
  for (const auto& f : families) {
    if (!f.help.empty()) {
      out += "# HELP ";
      out += f.name;
      out += ' ';
      append_escaped(out, f.help, false);
      out += '\n';
    }
    out += "# TYPE ";
    out += f.name;
    out += ' ';
    out += type_name(f.type);
    out += '\n';
    for (const auto& s : f.samples) append_sample(out, f, s, constant_labels);
  }
  return out;
}

}  // namespace jvmsight
