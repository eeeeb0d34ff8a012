#include "collectors/threads/pinning_collector.h"

namespace jvmsight {

void PinningCollector::collect(MetricFamilies& out) {
  if (!recorder_.supported()) return;
  add_histogram(add_family(out, "jvmsight_virtual_thread_pinned_seconds", MetricType::histogram,
                           "Virtual-thread pinnings (parks that held their carrier thread, as JFR's "
                           "jdk.VirtualThreadPinned counts them) and how long each held it"),
                recorder_.histogram());
}

}  // namespace jvmsight
