#pragma once
#include "collectors/lock_graph/lock_graph_source.h"
#include "collectors/threads/thread_info_reader.h"

namespace jvmsight {

// The attach fallback: when the JVM did not grant the OnLoad-only JVM TI
// capabilities, ThreadMXBean.findDeadlockedThreads finds the cycles (in a VM
// operation that stops the world) and getThreadInfo describes them. Only
// deadlocked threads are seen, so a full scan gives no holder or parked
// counts. Agent thread only.
class MxBeanLockGraphSource : public LockGraphSource {
 public:
  explicit MxBeanLockGraphSource(ThreadInfoReader& reader) : reader_(reader) {}
  std::optional<LockScan> scan(ScanDepth depth) override;
  bool stops_the_world() const override { return true; }

 private:
  ThreadInfoReader& reader_;
};

// The wait-for edges of dumped threads (pure, shared with tests).
WaitForGraph graph_of(const std::vector<ThreadRecord>& threads);

}  // namespace jvmsight
