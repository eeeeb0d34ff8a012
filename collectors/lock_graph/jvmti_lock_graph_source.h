#pragma once
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "collectors/lock_graph/java_lock_scan.h"
#include "collectors/lock_graph/jvm_lock_lookup.h"
#include "collectors/lock_graph/jvmti_monitor_waits.h"
#include "collectors/lock_graph/lock_graph_source.h"
#include "collectors/lock_graph/scan_edges.h"
#include "collectors/lock_graph/scan_observer.h"
#include "collectors/lock_graph/scan_planner.h"
#include "collectors/threads/thread_roster.h"
#include "collectors/threads/virtual_thread_census.h"

namespace jvmsight {

// The wait-for graph from JVM TI. A first pass picks the threads blocked on
// a monitor or parked on a j.u.c. lock, in Java (JvmsightLockScan,
// JIT-compiled: nanoseconds per thread), which also groups parked threads by
// their lock (Thread.parkBlocker; its exclusiveOwnerThread is the owner).
// Blocked threads are grouped by monitor (JvmtiMonitorWaits). What to read
// is decided by the pure ScanPlanner; this class only asks the JVM.
// Agent thread only. Needs can_get_current_contended_monitor and
// can_get_owned_monitor_info, which HotSpot grants only at startup (OnLoad).
class JvmtiLockGraphSource : public LockGraphSource {
 public:
  // Resolves the JNI ids it needs; check ready() afterwards. roster: the
  // platform threads (shared with the thread-state collector).
  // blocked_anew: set by every MonitorContendedEnter, cleared here (null: no reuse).
  // blocked_counts: the JVM's per-thread contended entries (null: every
  // blocked thread's edge is read at every fresh check).
  // virtual_threads (JDK 21+; null before): while virtual threads are live,
  // the background check also looks for those parked on owned j.u.c. locks.
  JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, bool monitor_usage,
                       std::atomic<bool>* blocked_anew, BlockedCountReader* blocked_counts = nullptr,
                       const VirtualThreadCensus* virtual_threads = nullptr);
  bool ready() const { return ready_; }
  // The Java pass, which also reads every thread's status word in one call:
  // the agent hands it to the roster for the thread-state walk. Null when
  // JvmsightLockScan could not be defined here.
  ThreadStatusGather* status_gather() { return java_pass_.get(); }
  // The same pass's scan of threads parked on synchronizers (the block
  // profile's); null where it cannot read their queues.
  ParkedThreadScan* parked_scan() { return java_pass_ && java_pass_->parks_ok() ? java_pass_.get() : nullptr; }

  std::optional<LockScan> scan(ScanDepth depth) override;
  // JDK 21+: the live virtual thread with this id (a local reference), or null.
  jthread virtual_thread(ThreadKey id) { return java_pass_ ? java_pass_->virtual_thread(id) : nullptr; }
  bool stops_the_world() const override { return false; }
  // Shown every background scan's waits (the lock-order probe, stuck threads).
  void set_observer(ScanObserver* observer) { observer_ = observer; }

 private:
  // The roster's list is taken again only when a thread started or ended,
  // and for the background check at most once per refresh_interval:
  // GetAllThreads costs milliseconds at 10,000 threads (and is erratic),
  // while reading each thread's status word is nanoseconds.
  static constexpr std::chrono::milliseconds refresh_interval{1000};

  bool take_threads(ScanDepth depth);
  std::optional<LockScan> scan_once(ScanDepth depth, bool allow_reuse);
  // The plan's candidates, and the distinct j.u.c. locks the Java pass grouped.
  std::optional<ScanPlan> plan(ScanDepth depth, bool allow_reuse, std::vector<jobject>& java_locks);
  std::vector<ScanWaiter> platform_waiters(const ScanPlan& plan, const std::vector<jobject>& java_locks,
                                           std::vector<ScanLock>& locks);
  // Where candidate k waits, or no_lock to leave it out.
  size_t juc_lock_of(const ScanPlan& plan, size_t k, jthread t, const std::vector<jobject>& java_locks,
                     std::vector<size_t>& slot_lock, std::vector<ScanLock>& locks);
  // False when virtual threads waits were not looked for this time (they
  // stand as the last walk saw them).
  bool add_virtual_waiters(std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks,
                           std::chrono::steady_clock::time_point now);
  void describe_locks(const std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks, bool full, LockScan& out);
  void name_cycles(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks, LockScan& out);
  void add_list_order(const ScanPlan& plan, LockScan& out);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadRoster& roster_;
  bool ready_ = false;
  uint64_t roster_version_ = 0;  // the list the Java pass and remembered edges refer to
  const VirtualThreadCensus* virtual_threads_;
  std::atomic<bool>* blocked_anew_;
  ScanPlanner planner_;
  JvmLockLookup lookup_;
  JvmtiMonitorWaits monitors_;
  std::unique_ptr<JavaLockScan> java_pass_;  // null: every thread is read through JNI
  ScanObserver* observer_ = nullptr;
};

}  // namespace jvmsight
