#pragma once
// jvmsight_virtual_thread_pinned_seconds: one histogram, no labels (a JVM TI
// agent is not told the reason: METRICS.md). Absent where the JVM has no
// virtual threads or the agent could not probe its parking method.
#include "collectors/collector.h"
#include "collectors/threads/pinning_recorder.h"

namespace jvmsight {

class PinningCollector : public Collector {
 public:
  explicit PinningCollector(const PinningRecorder& recorder) : recorder_(recorder) {}
  void collect(MetricFamilies& out) override;

 private:
  const PinningRecorder& recorder_;
};

}  // namespace jvmsight
