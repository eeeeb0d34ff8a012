#include "collectors/threads/pinning_collector.h"

namespace jvmsight {

void PinningCollector::collect(MetricFamilies& out) {
  if (!recorder_.supported()) return;
  add_histogram(add_family(out, "jvmsight_virtual_thread_pinned_seconds"), recorder_.histogram());
}

}  // namespace jvmsight
