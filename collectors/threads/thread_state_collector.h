#pragma once
#include "collectors/collector.h"
#include "collectors/threads/thread_source.h"
#include "collectors/threads/virtual_thread_counter.h"

namespace jvmsight {

// jvm_threads_* (client_java names) plus the JVM TI sub-states and virtual
// thread counts.
class ThreadStateCollector : public Collector {
 public:
  ThreadStateCollector(ThreadSource& source, const VirtualThreadCounter& virtual_threads)
      : source_(source), virtual_threads_(virtual_threads) {}
  void collect(MetricFamilies& out) override;

 private:
  ThreadSource& source_;
  const VirtualThreadCounter& virtual_threads_;
};

}  // namespace jvmsight
