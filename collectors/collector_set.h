#pragma once
// The collectors one scrape (or push) runs, in order, each timed, so the
// agent's own cost shows per collector in
// jvmsight_collector_duration_seconds{collector} and in total in
// jvmsight_scrape_duration_seconds. Agent thread only.
#include <string>
#include <vector>

#include "collectors/collector.h"

namespace jvmsight {

class CollectorSet {
 public:
  // name: the `collector` label. The collector must outlive the set.
  void add(std::string name, Collector& collector);
  MetricFamilies collect();

 private:
  struct Named {
    std::string name;
    Collector* collector;
    bool warned = false;
  };
  void collect_one(Named& c, MetricFamilies& out);
  std::vector<Named> collectors_;
};

}  // namespace jvmsight
