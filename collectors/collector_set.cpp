#include "collectors/collector_set.h"

#include <chrono>
#include <exception>

#include "common/log.h"

namespace jvmsight {

void CollectorSet::add(std::string name, Collector& collector) { collectors_.push_back({std::move(name), &collector}); }

// One collector's failure costs its own families, not the scrape: what it
// added before throwing is dropped (it may be half-built) and the others
// still answer. Warned once per collector, so a failure on every scrape
// does not flood the JVM's log.
void CollectorSet::collect_one(Named& c, MetricFamilies& out) {
  const size_t before = out.size();
  try {
    c.collector->collect(out);
    return;
  } catch (const std::exception& e) {
    if (!c.warned) log::warn("collector ", c.name, " failed, its metrics are left out: ", e.what());
  } catch (...) {
    if (!c.warned) log::warn("collector ", c.name, " failed, its metrics are left out");
  }
  c.warned = true;
  out.resize(before);
}

MetricFamilies CollectorSet::collect() {
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  auto start = Clock::now();
  MetricFamilies out;
  MetricFamily per_collector = catalogued_family("jvmsight_collector_duration_seconds");
  for (auto& c : collectors_) {
    auto t = Clock::now();
    collect_one(c, out);
    add_sample(per_collector, seconds_since(t), {{"collector", c.name}});
  }
  out.push_back(std::move(per_collector));
  add_sample(add_family(out, "jvmsight_scrape_duration_seconds"), seconds_since(start));
  return out;
}

}  // namespace jvmsight
