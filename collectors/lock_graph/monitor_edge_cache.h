#pragma once
// The monitor edges of the last background deadlock check, reused while
// they still hold. Monitor edges cost handshakes (GetCurrentContendedMonitor,
// GetOwnedMonitorInfo). A blocked thread can only change the monitor it
// waits for, or stop waiting, through a contended-enter event; so while no
// such event happened and the same threads are candidates, the edges of the
// last check still hold (j.u.c. edges are always read afresh). Every
// max_reuse+1-th check is fresh, and so is a check after one that found a
// cycle, which bounds what a silent change of owner (an uncontended barging
// acquire) could hide. Where a fresh read is dear, reuse goes on past
// max_reuse until fresh_spacing times its cost has passed (at most
// max_reuse_time): on JDK 8 its two monitor queries are safepoints, 5-40 ms
// of VM thread each at 10,000 threads (0.1-1 ms on 17+, where max_reuse
// decides), and the agent at rest must stay under 1% of a core with them. Pure: no JVM.
#include <jni.h>

#include <chrono>
#include <vector>

#include "collectors/lock_graph/wait_for_graph.h"

namespace jvmsight {

class MonitorEdgeCache {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr int max_reuse = 3;
  static constexpr int fresh_spacing = 400;  // fresh reads: at most 0.25% of the time
  static constexpr std::chrono::seconds max_reuse_time{16};

  // Whether this check takes its monitor edges from the cache: allowed by
  // the caller (nothing blocked anew, candidates from the Java pass), the
  // same candidates (indices into the thread list) as when remembered, and
  // fewer than max_reuse reuses in a row or a fresh read not yet due (now).
  // Counts the reuse, or restarts the count.
  bool try_reuse(const std::vector<jint>& candidates, bool allowed, Clock::time_point now = {});
  // After a check that read its edges: keeps graph's monitor edges when they
  // are a whole set (every blocked candidate's edge read) without a cycle.
  // read_cost: what reading them took (wall clock, ending at now).
  void remember(const std::vector<jint>& candidates, const WaitForGraph& graph, bool whole,
                Clock::duration read_cost = {}, Clock::time_point now = {});
  // The indices name other threads now (a new thread list), or a cycle
  // deserves a fresh look.
  void invalidate() { valid_ = false; }
  // The last check reused edges (which carry no names).
  bool reused_last() const { return reused_ > 0; }
  const std::vector<WaitEdge>& edges() const { return edges_; }

 private:
  std::vector<jint> candidates_;
  std::vector<WaitEdge> edges_;
  bool valid_ = false;
  int reused_ = 0;                 // reuses in a row
  Clock::time_point fresh_due_{};  // the next fresh read, by its cost
};

}  // namespace jvmsight
