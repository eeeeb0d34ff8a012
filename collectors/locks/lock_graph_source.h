#pragma once
// The narrow seam between lock collectors and the JVM: who waits for which
// lock and who owns it, taken by the agent thread. Fakes in unit tests; the
// real ones are JvmtiLockGraphSource (cheap, needs OnLoad capabilities) and
// MxBeanLockGraphSource (ThreadMXBean, stops the world: the attach fallback).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collectors/locks/wait_for_graph.h"

namespace jvmsight {

enum class ScanDepth {
  // Only what a cycle can consist of: threads blocked on a monitor, or parked
  // on an owned j.u.c. lock, with owners found among those threads. This is
  // the background check: it must be cheap, and is when nothing is blocked.
  cycles,
  // Every blocked or parked-on-lock thread with its owner wherever it runs,
  // lock classes, per-class parked counts: for scrape-time holder metrics.
  full,
};

struct LockScan {
  WaitForGraph graph;
  size_t threads_seen = 0;                         // live platform threads looked at
  std::map<std::string, size_t> juc_parked;        // full: parked threads per synchronizer class
  std::map<int32_t, std::string> monitor_classes;  // identity hash -> class of monitors seen contended
  // When the graph has a cycle: the waiting platform threads in the JVM's
  // thread-list order, for WaitForGraph::hotspot_deadlocked.
  std::vector<ThreadKey> list_order;
};

class LockGraphSource {
 public:
  virtual ~LockGraphSource() = default;
  // nullopt if the JVM refused (e.g. exiting).
  virtual std::optional<LockScan> scan(ScanDepth depth) = 0;
  // True when this source stops the world (ThreadMXBean): check less often.
  virtual bool stops_the_world() const = 0;
};

}  // namespace jvmsight
