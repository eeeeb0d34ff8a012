#pragma once
// Turns the new waits the deadlock check sees into lock orders: for a
// thread newly seen waiting for lock Y, what it holds (its monitors from
// GetOwnedMonitorInfo, a handshake; the remembered j.u.c. locks it owns,
// LockNodes) gives an order X -> Y for each held X, with the call site
// that asked for Y (CallSites, a second handshake, only when an order is
// new). The pure parts decide: which waits and when (ProbeSchedule), and
// what the orders make (LockOrderGraph). Agent thread only.
#include <jni.h>
#include <jvmti.h>

#include <chrono>
#include <utility>
#include <vector>

#include "collectors/lock_graph/call_site.h"
#include "collectors/lock_graph/lock_nodes.h"
#include "collectors/lock_graph/lock_order_graph.h"
#include "collectors/lock_graph/probe_schedule.h"
#include "collectors/lock_graph/scan_edges.h"
#include "collectors/lock_graph/wait_episodes.h"

namespace jvmsight {

class LockOrderProbe {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t max_edges = 1024;
  static constexpr size_t max_inversions = 64;

  LockOrderProbe(jvmtiEnv* jvmti, JNIEnv* jni, JvmLockLookup& lookup)
      : jvmti_(jvmti), jni_(jni), lookup_(lookup), nodes_(jni, lookup), sites_(jvmti, jni) {}

  // One background scan: remembers its j.u.c. locks, looks at the new waits
  // the schedule allows (marking them examined). Returns the thread stops.
  size_t probe(WaitEpisodes& episodes, const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks,
               Clock::time_point now);
  // Forgets the locks that were collected, with their orders and inversions.
  void sweep();
  // Inversions found since the last call, each once.
  std::vector<LockOrderInversion> take_found() { return std::exchange(found_, {}); }
  const LockOrderGraph& graph() const { return graph_; }

 private:
  using JucOwners = std::vector<std::pair<LockVertex, jthread>>;
  size_t examine(const ScanWaiter& waiter, const ScanLock& lock, const JucOwners& owners);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  JvmLockLookup& lookup_;
  LockNodes nodes_;
  CallSites sites_;
  ProbeSchedule schedule_;
  LockOrderGraph graph_{max_edges, max_inversions};
  std::vector<LockOrderInversion> found_;
};

}  // namespace jvmsight
