#pragma once
#include "collectors/collector.h"
#include "collectors/threads/thread_source.h"
#include "collectors/threads/virtual_thread_counter.h"

namespace jvmsight {

// jvm_threads_* (client_java names) plus the JVM TI sub-states and virtual
// thread counts: live ones from the source, starts (virtual_thread_starts=on
// only) from the counter.
class ThreadStateCollector : public Collector {
 public:
  ThreadStateCollector(ThreadSource& source, const VirtualThreadCounter& virtual_starts)
      : source_(source), virtual_starts_(virtual_starts) {}
  void collect(MetricFamilies& out) override;

 private:
  void add_virtual_threads(MetricFamilies& out);

  ThreadSource& source_;
  const VirtualThreadCounter& virtual_starts_;
};

}  // namespace jvmsight
