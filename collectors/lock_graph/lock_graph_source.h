#pragma once
// The narrow seam between lock collectors and the JVM: who waits for which
// lock and who owns it, taken by the agent thread. Fakes in unit tests; the
// real ones are JvmtiLockGraphSource (cheap, needs OnLoad capabilities) and
// MxBeanLockGraphSource (ThreadMXBean, stops the world: the attach fallback).
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "collectors/lock_graph/wait_for_graph.h"

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

// What the scrape-time queue metrics need, counted per lock by a source that
// can (a full scan of thousands of waiters need not build their graph).
struct LockQueues {
  size_t monitor_waiters = 0;  // platform threads blocked entering a monitor
  size_t juc_waiters = 0;      // parked on an AbstractOwnableSynchronizer
  struct Holder {
    ThreadKey id = 0;
    std::string name;
    std::string lock_class;
    bool operator<(const Holder& o) const {
      return std::tie(id, name, lock_class) < std::tie(o.id, o.name, o.lock_class);
    }
  };
  std::map<Holder, size_t> queued;  // threads waiting for a lock the holder owns (itself excluded)
};

struct LockScan {
  // Background check (ScanDepth::cycles): may leave out edges that cannot
  // be on a cycle (from threads that own nothing), unless there is a cycle.
  WaitForGraph graph;
  // Full scans: set by sources that count per lock; else derive from graph.
  std::optional<LockQueues> queues;
  size_t threads_seen = 0;  // live platform threads looked at
  // Handshakes and VM operations the scan asked of the JVM: each stops one
  // application thread, or all of them, briefly.
  size_t thread_stops = 0;
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
