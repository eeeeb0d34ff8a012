#pragma once
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "collectors/locks/blocked_progress.h"
#include "collectors/locks/java_lock_scan.h"
#include "collectors/locks/jvm_blocked_counts.h"
#include "collectors/locks/lock_graph_source.h"
#include "collectors/threads/thread_roster.h"
#include "collectors/threads/virtual_thread_counter.h"

namespace jvmsight {

// The wait-for graph from JVM TI. A first pass picks the threads blocked on
// a monitor or parked on a j.u.c. lock, in Java (JvmsightLockScan,
// JIT-compiled: nanoseconds per thread), which also groups parked threads by
// their lock (Thread.parkBlocker; its exclusiveOwnerThread is the owner).
// Blocked threads are grouped by monitor with one GetCurrentContendedMonitor
// (a handshake with one thread) and one GetObjectMonitorUsage (owner and
// queued threads) per distinct monitor, not per thread; GetOwnedMonitorInfo
// of the waiting threads is the fallback. Agent thread only.
// Needs can_get_current_contended_monitor and can_get_owned_monitor_info,
// which HotSpot grants only at startup (OnLoad).
class JvmtiLockGraphSource : public LockGraphSource {
 public:
  // Resolves the JNI ids it needs; check ready() afterwards. roster: the
  // platform threads (shared with the thread-state collector, whose status
  // words the Java pass then gathers too).
  // blocked_anew: set by every MonitorContendedEnter, cleared here (null: no reuse).
  // blocked_counts: the JVM's per-thread contended entries (null: every
  // blocked thread's edge is read at every fresh check).
  // virtual_threads: while it counts live ones (JDK 21+), the background check
  // also looks for virtual threads parked on owned j.u.c. locks.
  JvmtiLockGraphSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, bool monitor_usage,
                       std::atomic<bool>* blocked_anew, JvmBlockedCounts* blocked_counts = nullptr,
                       const VirtualThreadCounter* virtual_threads = nullptr);
  ~JvmtiLockGraphSource() override;
  bool ready() const { return ready_; }

  std::optional<LockScan> scan(ScanDepth depth) override;
  // JDK 21+: the live virtual thread with this id (a local reference), or null.
  jthread virtual_thread(ThreadKey id) { return java_pass_ ? java_pass_->virtual_thread(id) : nullptr; }
  bool stops_the_world() const override { return false; }

 private:
  struct Lock;
  struct Waiter;
  // What one scan does, decided before it starts.
  struct Plan {
    bool full = false;       // ScanDepth::full: every waiter, owners wherever they run, all named
    bool from_java = false;  // candidates came from the Java pass (else: every thread)
    bool reuse = false;      // the monitor edges of the last scan still hold
    // Per candidate: blocked, but it entered a monitor since the last check
    // (the blocked set churns): no edge read, it is not deadlocked.
    std::vector<bool> moved;
    std::vector<jint> candidates;  // indices into the roster's threads
    // From the Java pass, per candidate: thread id, and what it waits for
    // (JavaLockScan::Candidates); the distinct j.u.c. locks it grouped.
    std::vector<jlong> ids;
    std::vector<jint> groups;
    std::vector<jobject> java_locks;
  };
  ThreadKey key_of(jthread t);
  // The lock a parked thread waits for when its park blocker is an
  // AbstractOwnableSynchronizer, with that lock's exclusive owner (null if
  // none); null for no or any other blocker.
  jobject ownable_blocker(jthread t, jthread& owner);
  std::string thread_name(jthread t);
  std::string class_name_of(jobject o);
  int32_t hash_of(jobject o);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadRoster& roster_;
  bool monitor_usage_;  // can_get_monitor_info: owners that are not themselves waiting
  bool ready_ = false;
  // The roster's list is taken again only when a thread started or ended,
  // and for the background check at most once per refresh_interval:
  // GetAllThreads costs milliseconds at 10,000 threads (and is erratic),
  // while reading each thread's status word is nanoseconds.
  static constexpr std::chrono::milliseconds refresh_interval{1000};
  uint64_t roster_version_ = 0;  // the list the Java pass and remembered edges refer to
  bool take_threads(ScanDepth depth);
  std::optional<LockScan> scan_once(ScanDepth depth, bool allow_reuse);
  std::optional<Plan> plan(ScanDepth depth, bool allow_reuse);
  static size_t add_juc_lock(std::vector<Lock>& locks, jobject blocker, jthread owner);
  std::vector<Waiter> platform_waiters(const Plan& plan, std::vector<Lock>& locks);
  void add_virtual_waiters(std::vector<Waiter>& waiters, std::vector<Lock>& locks,
                           std::chrono::steady_clock::time_point now);
  void resolve_monitors(std::vector<Waiter>& waiters, std::vector<Lock>& locks, bool full, size_t& stops);
  void find_monitor_owners(std::vector<Waiter>& waiters, std::vector<Lock>& locks, bool full, size_t& stops);
  void describe_locks(const std::vector<Waiter>& waiters, std::vector<Lock>& locks, bool full, LockScan& out);
  void add_edges(const std::vector<Waiter>& waiters, const std::vector<Lock>& locks, bool full, LockScan& out);
  void name_cycles(const std::vector<Waiter>& waiters, const std::vector<Lock>& locks, LockScan& out);
  void add_list_order(const Plan& plan, LockScan& out);
  void remember_monitor_edges(const LockScan& scan, const Plan& plan);
  void skip_moved(Plan& p);

  // Monitor edges cost handshakes (GetCurrentContendedMonitor,
  // GetOwnedMonitorInfo). A blocked thread can only change the monitor it
  // waits for, or stop waiting, through a contended-enter event; so while no
  // such event happened and the same threads are candidates, the monitor
  // edges of the last scan still hold and are reused (j.u.c. edges are always
  // read afresh). A scan after one that found a cycle, and every
  // max_reuse+1-th scan, is fresh, which bounds what a silent change of
  // owner (an uncontended barging acquire) could hide.
  static constexpr int max_reuse = 3;
  // Finding virtual threads walks all of them (the JDK keeps no list of the
  // blocked ones, and the walk costs 160-260 ns a thread): skipped above
  // this many live, at most this many candidates, and, unless the last scan
  // found a cycle (which must be confirmed and kept), not again before
  // virtual_walk_spacing times the last walk's duration has passed (under
  // 0.5% of the agent thread's time).
  static constexpr uint64_t max_virtual_threads_walked = 100'000;
  static constexpr jint max_virtual_candidates = 256;
  static constexpr int virtual_walk_spacing = 200;
  std::chrono::steady_clock::time_point next_virtual_walk_{};
  bool cycle_in_last_scan_ = false;
  const VirtualThreadCounter* virtual_threads_;
  std::atomic<bool>* blocked_anew_;
  // While threads block anew at every check (a contention storm, or the
  // contention events duty-cycled off, so the check cannot tell), the blocked
  // set churns and re-reading it all would cost handshakes and VM operations
  // at every check. From the second such check on, only blocked threads
  // that made no contended entry since the previous one get their edge
  // read: a deadlock that forms in a storm is found one check later.
  JvmBlockedCounts* blocked_counts_;
  BlockedProgress progress_;
  bool churn_ = false;  // the last background check read edges afresh: threads had blocked anew
  std::vector<jint> reuse_candidates_;
  std::vector<WaitEdge> reuse_edges_;
  bool reuse_valid_ = false;
  int reused_ = 0;

  std::unique_ptr<JavaLockScan> java_pass_;  // null: every thread is read through JNI

  jclass aos_ = nullptr;  // global ref: java.util.concurrent.locks.AbstractOwnableSynchronizer
  jfieldID exclusive_owner_ = nullptr;
  std::vector<std::pair<jclass, std::string>> class_names_;  // global refs, few distinct lock classes
};

}  // namespace jvmsight
