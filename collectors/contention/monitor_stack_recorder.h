#pragma once
// The hot half of the monitor contention profile (/debug/pprof/mutex):
// MonitorContendedEnter interns the waiting thread's stack (taken while the
// thread is about to block anyway) and keeps its id in the thread's word of
// the profile's own JVM TI environment; MonitorContendedEntered, which runs
// inside the critical section, only decides by the wait's length whether to
// keep it (wait_sampling.h) and adds to two counters. See StackTable for
// what the callbacks may do.
#include <atomic>
#include <cstdint>

#include "collectors/contention/stack_table.h"
#include "collectors/contention/wait_sampling.h"

namespace jvmsight {

class MonitorStackRecorder {
 public:
  // rate_ns: Go's block profile rate (0 keeps every wait).
  explicit MonitorStackRecorder(uint64_t rate_ns) : rate_ns_(rate_ns) {}

  StackTable& table() { return table_; }
  const StackTable& table() const { return table_; }
  uint64_t rate_ns() const { return rate_ns_; }

  void keep(uint32_t stack_id, const KeptWait& kept) {
    if (stack_id == StackTable::no_stack) return;  // its stack could not be taken
    table_.add(stack_id, kept.weight, kept.delay_ns);
    samples_.fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t samples() const { return samples_.load(std::memory_order_relaxed); }

 private:
  StackTable table_;
  const uint64_t rate_ns_;
  std::atomic<uint64_t> samples_{0};
};

}  // namespace jvmsight
