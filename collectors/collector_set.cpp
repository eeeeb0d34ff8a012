#include "collectors/collector_set.h"

#include <chrono>

namespace jvmsight {

void CollectorSet::add(std::string name, Collector& collector) { collectors_.push_back({std::move(name), &collector}); }

MetricFamilies CollectorSet::collect() {
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto start = Clock::now();
  MetricFamilies out;
  MetricFamily per_collector = catalogued_family("jvmsight_collector_duration_seconds");
  for (auto& c : collectors_) {
    auto t = Clock::now();
    c.collector->collect(out);
    add_sample(per_collector, seconds_since(t), {{"collector", c.name}});
  }
  out.push_back(std::move(per_collector));
  add_sample(add_family(out, "jvmsight_scrape_duration_seconds"), seconds_since(start));
  return out;
}

}  // namespace jvmsight
