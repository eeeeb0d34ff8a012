#pragma once
// The last step of a lock-graph scan, once the JVM has said who waits for
// which lock and who owns it: the waits become the scan's result. Pure (the
// JVM references are only carried along), unit-tested without a JVM.
#include <jni.h>
#include <jvmti.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "collectors/lock_graph/lock_graph_source.h"

namespace jvmsight {

// A distinct lock some candidates wait for: its per-lock work (owner, hash,
// class, owner name) is done once, however many threads queue on it.
struct ScanLock {
  jobject object = nullptr;  // null: a monitor the scan had no budget left to name
  LockKind kind = LockKind::monitor;
  jthread owner = nullptr;   // j.u.c.: exclusiveOwnerThread; monitors: from GetObjectMonitorUsage or later
  bool owner_known = false;  // monitors: owner asked already (null then means unowned)
  int32_t hash = 0;
  std::optional<ThreadKey> owner_id;
  std::string class_name;
  std::string owner_name;
};

struct ScanWaiter {
  static constexpr size_t no_lock = static_cast<size_t>(-1);
  jthread thread = nullptr;
  ThreadKey id = 0;
  size_t lock = no_lock;  // into the scan's locks; no_lock: a blocked thread whose monitor is not known yet
  bool virtual_thread = false;
};

// A full scan (scrape) counts per lock into out.queues and builds no graph.
// The background check adds first only the edges of waiting threads that
// own a lock someone waits for (out.graph may hold reused monitor edges
// already): every thread on a cycle does, so that smaller graph has the same
// cycles, and a pileup behind a running holder adds none. Only when there is
// a cycle does it get every edge (the deadlocked gauges count the threads
// waiting on a cycle too).
void add_scan_edges(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks, bool full,
                    LockScan& out);

}  // namespace jvmsight
