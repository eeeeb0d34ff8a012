#pragma once
// What a lock-graph scan reads, decided before it asks the JVM anything
// (JvmtiLockGraphSource does the asking). Pure: no JVM, unit-tested alone.
//
// - Edge reuse: while no thread blocked anew, the monitor edges of the last
//   background check still hold (MonitorEdgeCache).
// - Churn: while threads block anew at every check (a contention storm, or
//   the contention events duty-cycled off, so the check cannot tell), the
//   blocked set churns, and re-reading it all would cost handshakes and VM
//   operations at every check. From the second such check on, only blocked
//   threads that made no contended entry since the previous one get their
//   edge read (BlockedProgress): a deadlock that forms in a storm is found
//   one check later.
// - The virtual-thread walk: finding virtual threads walks all of them (the
//   JDK keeps no list of the blocked ones, and the walk costs 160-260 ns a
//   thread): skipped above max_virtual_walked live, at most
//   max_virtual_candidates, and, unless the last check found a cycle (which
//   must be confirmed and kept), not again before virtual_walk_spacing times
//   the last walk's duration has passed (under 0.5% of the agent thread).
#include <jni.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "collectors/lock_graph/blocked_progress.h"
#include "collectors/lock_graph/monitor_edge_cache.h"
#include "collectors/lock_graph/wait_for_graph.h"

namespace jvmsight {

// What one scan does.
struct ScanPlan {
  // groups[k] of a candidate blocked entering a monitor (JavaLockScan's).
  static constexpr jint monitor_group = -1;
  bool full = false;             // ScanDepth::full: every waiter, owners wherever they run, all named
  bool from_java = false;        // candidates came from the Java pass (else: every thread)
  bool reuse = false;            // the monitor edges come from the cache, not the JVM
  std::vector<jint> candidates;  // indices into the thread list
  // From the Java pass, per candidate: thread id and group (monitor_group,
  // or what j.u.c. lock it parks on).
  std::vector<jlong> ids;
  std::vector<jint> groups;
  // Per candidate: blocked, but it entered a monitor since the last check
  // (the blocked set churns): no edge read, it is not deadlocked. Empty: none.
  std::vector<bool> moved;
  bool skips(size_t k) const { return k < moved.size() && moved[k]; }
};

class ScanPlanner {
 public:
  using Clock = std::chrono::steady_clock;
  // Past this many blocked threads their counts would cost more than they
  // save (about 1 us a thread, against a handshake and a VM operation per
  // distinct monitor, however many queue on it): every edge is read.
  static constexpr size_t max_progress_reads = 256;
  static constexpr uint64_t max_virtual_walked = 100'000;
  static constexpr jint max_virtual_candidates = 256;
  static constexpr int virtual_walk_spacing = 200;

  // counts: the JVM's per-thread contended entries (null: every blocked
  // thread's edge is read at every check that follows new blocking).
  explicit ScanPlanner(BlockedCountReader* counts) : counts_(counts) {}

  // Completes a plan whose candidates are filled in. blocked_anew: a thread
  // blocked on a monitor since the last check, or nobody can tell.
  // allow_reuse: false for a second look at a cycle.
  void decide(ScanPlan& plan, bool allow_reuse, bool blocked_anew, Clock::time_point now = {});
  // After the scan: its monitor edges, for the next checks, and what reading
  // them from the JVM took (MonitorEdgeCache spaces fresh reads by it).
  void scanned(const ScanPlan& plan, const WaitForGraph& graph, Clock::duration read_cost = {},
               Clock::time_point now = {});
  // After a background check; a cycle keeps the virtual walk going.
  void checked(bool found_cycle) { cycle_in_last_check_ = found_cycle; }
  MonitorEdgeCache& edges() { return cache_; }

  // Whether a background check walks the virtual threads now.
  bool virtual_walk_due(uint64_t live_virtual, Clock::time_point now) const;
  void virtual_walked(Clock::time_point start, Clock::time_point end) {
    next_virtual_walk_ = start + virtual_walk_spacing * (end - start);
  }

 private:
  void skip_moved(ScanPlan& plan);

  BlockedCountReader* counts_;
  MonitorEdgeCache cache_;
  BlockedProgress progress_;
  bool churn_ = false;  // the last background check read edges afresh: threads had blocked anew
  bool cycle_in_last_check_ = false;
  Clock::time_point next_virtual_walk_{};
};

}  // namespace jvmsight
