#pragma once
// Lock objects as the lock-order graph's nodes. Each is held by a JNI weak
// global reference, so a lock the application drops is still collected;
// sweep() then finds it cleared and the graph forgets it. A lock is found
// again by its identity hash, confirmed with IsSameObject (two locks can
// share a hash).
//
// Also the j.u.c. locks a waiting thread may hold. There is no cheap "locks
// owned by this thread" for them (ThreadMXBean's locked synchronizers walk
// the heap at a safepoint; reading a frame's locals needs
// can_access_local_variables, which turns off C2's escape analysis for the
// whole JVM), so the locks the deadlock check has met (some thread parked
// on them) are remembered, and their exclusive owners read. A j.u.c. lock
// no check ever saw contended is not known to be held.
//
// Bounded: at most max_nodes locks, of which at most max_juc_met remembered
// as met (the least recently met forgotten first). Agent thread only.
#include <jni.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collectors/lock_graph/jvm_lock_lookup.h"
#include "collectors/lock_graph/lock_order_graph.h"

namespace jvmsight {

class LockNodes {
 public:
  static constexpr size_t max_nodes = 4096;
  static constexpr size_t max_juc_met = 256;

  LockNodes(JNIEnv* jni, JvmLockLookup& lookup) : jni_(jni), lookup_(lookup) {}
  ~LockNodes();
  LockNodes(const LockNodes&) = delete;
  LockNodes& operator=(const LockNodes&) = delete;

  // The node of this lock (a new one if unknown); nullopt when full.
  std::optional<LockVertex> vertex_of(jobject lock, LockKind kind);
  // A j.u.c. lock some thread was seen parked on.
  void met_juc(jobject lock);
  // The remembered j.u.c. locks and their exclusive owners now (local
  // references: the caller's frame frees them). One field read each.
  std::vector<std::pair<LockVertex, jthread>> juc_owners();
  // Forgets the locks that were collected (returned: the graph forgets
  // them too) and those neither the graph nor the met list refers to.
  std::vector<LockNode> sweep(const LockOrderGraph& graph);
  size_t size() const { return nodes_.size(); }

 private:
  struct Entry {
    jweak ref = nullptr;
    LockVertex vertex;
    uint64_t met = 0;  // when last met parked on (j.u.c.); 0: not remembered as met
  };
  void erase(LockNode node);
  void forget_least_recently_met();

  JNIEnv* jni_;
  JvmLockLookup& lookup_;
  std::unordered_map<LockNode, Entry> nodes_;
  std::unordered_multimap<int32_t, LockNode> by_hash_;
  LockNode next_ = 1;
  uint64_t met_clock_ = 0;
  size_t juc_met_ = 0;
};

}  // namespace jvmsight
