#pragma once
#include "collectors/collector.h"
#include "collectors/threads/thread_source.h"

namespace jvmsight {

// jvm_threads_* (client_java names) plus the JVM TI sub-states and virtual
// thread counts, live and started.
class ThreadStateCollector : public Collector {
 public:
  explicit ThreadStateCollector(ThreadSource& source) : source_(source) {}
  void collect(MetricFamilies& out) override;

 private:
  void add_virtual_threads(MetricFamilies& out);

  ThreadSource& source_;
};

}  // namespace jvmsight
