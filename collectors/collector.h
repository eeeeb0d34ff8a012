#pragma once
#include "model/metric_catalogue.h"

namespace jvmsight {

// One signal's metrics, computed when asked (at scrape or push time) on the
// agent thread.
class Collector {
 public:
  virtual ~Collector() = default;
  virtual void collect(MetricFamilies& out) = 0;
};

}  // namespace jvmsight
