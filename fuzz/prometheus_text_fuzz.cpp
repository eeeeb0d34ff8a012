// The Prometheus text writer with names, help texts and label values from the
// fuzz input. Label values and help come from the JVM (lock class and GC
// names) and from the user's label.<name>= options: whatever their bytes,
// with valid metric and label names every line of the output must be a
// comment or a sample of one of the families (nothing breaks a line).
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "exporters/prometheus/text_format.h"

namespace {

using namespace jvmsight;

bool valid_name(const std::string& s) {
  if (s.empty()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

std::vector<Label> labels(FuzzedDataProvider& in, bool& names_valid) {
  std::vector<Label> out;
  for (int n = in.ConsumeIntegralInRange(0, 3); n > 0; --n) {
    Label l{in.ConsumeRandomLengthString(32), in.ConsumeRandomLengthString(256)};
    names_valid &= valid_name(l.name) && l.name.rfind("__", 0) != 0;
    out.push_back(std::move(l));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  bool names_valid = true;
  MetricFamilies families;
  for (int n = in.ConsumeIntegralInRange(1, 4); n > 0 && in.remaining_bytes() > 0; --n) {
    MetricFamily f;
    f.name = in.ConsumeRandomLengthString(32);
    names_valid &= valid_name(f.name);
    f.help = in.ConsumeRandomLengthString(256);
    f.type = static_cast<MetricType>(in.ConsumeIntegralInRange(0, 3));
    for (int s = in.ConsumeIntegralInRange(0, 3); s > 0; --s) {
      Sample sample;
      sample.labels = labels(in, names_valid);
      sample.value = in.ConsumeFloatingPoint<double>();
      for (int b = in.ConsumeIntegralInRange(0, 4); b > 0; --b) {
        sample.histogram.upper_bounds.push_back(in.ConsumeFloatingPoint<double>());
        sample.histogram.bucket_counts.push_back(in.ConsumeIntegralInRange<uint64_t>(0, 1000));
      }
      sample.histogram.bucket_counts.push_back(in.ConsumeIntegralInRange<uint64_t>(0, 1000));
      sample.histogram.count = in.ConsumeIntegral<uint64_t>();
      sample.histogram.sum = in.ConsumeFloatingPoint<double>();
      sample.summary = {in.ConsumeIntegral<uint64_t>(), in.ConsumeFloatingPoint<double>()};
      f.samples.push_back(std::move(sample));
    }
    families.push_back(std::move(f));
  }
  std::vector<Label> constant = labels(in, names_valid);
  std::string out = to_prometheus_text(families, constant);
  if (!names_valid) return 0;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    bool known = line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0;
    for (const auto& f : families) {
      if (line.rfind(f.name, 0) != 0) continue;
      size_t after = f.name.size();
      while (after < line.size() && line[after] != '{' && line[after] != ' ') ++after;  // _bucket, _sum...
      known |= after < line.size();
    }
    if (!known) {  // a label value or help text broke a line
      std::fprintf(stderr, "line not a comment or sample: %s\nin:\n%s\n", line.c_str(), out.c_str());
      std::abort();
    }
  }
  return 0;
}
