#pragma once
// The background deadlock check's first pass, in Java: JvmsightLockScan and
// the JvmsightUnsafe it reads fields with (collectors/lock_graph/java/...),
// compiled at build time, embedded in the agent, and
// defined by the bootstrap loader in java.util.concurrent.locks so it may call
// AbstractOwnableSynchronizer.getExclusiveOwnerThread. Through JNI every
// field read costs a VM transition; JIT-compiled Java reads a thread's status
// and park blocker in nanoseconds. The same class gathers every thread's
// status word for the roster (the thread-state collector's scrape): one JNI
// call, where a GetIntField per thread cost 0.2-0.3 ms at 10,000 threads.
// And JvmsightParkedScan finds the threads parked on j.u.c. synchronizers
// for the block profile (ParkedThreadScan). Agent thread only.
#include <jni.h>
#include <jvmti.h>

#include <optional>
#include <vector>

#include "collectors/lock_graph/parked_thread_scan.h"
#include "collectors/threads/thread_roster.h"

namespace jvmsight {

class JavaLockScan : public ThreadStatusGather, public ParkedThreadScan {
 public:
  // Defines the class (or finds it from an earlier load) and warms it up.
  JavaLockScan(jvmtiEnv* jvmti, JNIEnv* jni);
  bool ok() const { return ok_; }

  // The threads to scan: the roster's Thread[] (ThreadRoster::thread_array;
  // this keeps its own reference to it) and its length.
  void set_threads(jobjectArray threads, jsize count);
  // JvmsightLockScan.statuses, for ThreadRoster::for_each.
  bool gather(jobjectArray threads, jintArray out) override;
  // What the Java pass found: candidate k is threads[index[k]], with thread
  // id id[k], blocked on a monitor (group[k] == monitor_group), parked on
  // locks[group[k]] (a local reference, freed by the caller's frame), or
  // parked on a lock that did not fit in locks (overflow_group).
  struct Candidates {
    static constexpr jint monitor_group = -1;
    static constexpr jint overflow_group = -2;
    std::vector<jint> index;
    std::vector<jlong> id;
    std::vector<jint> group;
    std::vector<jobject> locks;
  };
  // Threads blocked on a monitor or parked on a j.u.c. lock with an
  // exclusive owner (unowned: any AbstractOwnableSynchronizer, as for
  // scrape-time queue metrics); nullopt if the call failed.
  std::optional<Candidates> candidates(bool unowned = false);
  // Distinct parked-on locks the Java pass groups; more go through JNI one by one.
  static constexpr jsize max_lock_slots = 64;
  // JDK 21+: virtual threads parked on a j.u.c. lock with an exclusive owner
  // (at most max; local references, freed by the caller's frame). Virtual
  // threads are in no JVM TI thread list; Java finds them in the JDK's
  // thread containers, at a cost that grows with their number.
  std::vector<jthread> virtual_candidates(jint max);
  // The live virtual thread with this id (a local reference), or null.
  jthread virtual_thread(jlong id);

  // ParkedThreadScan, for the block profile; every call fails where
  // JvmsightParkedScan cannot run (parks_ok() false).
  bool parks_ok() const { return parked_method_ != nullptr; }
  std::optional<ParkedThreads> parked(jobjectArray threads, jsize count) override;
  std::optional<ParkedThreads> parked_virtual(jint max) override;
  std::vector<std::string> virtual_stacks(const std::vector<jint>& index, jint depth) override;

 private:
  bool define();
  bool warm_up();  // false: the class cannot run here
  void define_parked_scan();
  // The parked pass's arrays (global refs), grown to count threads.
  bool size_parked_arrays(jsize count);
  std::optional<ParkedThreads> parked_results(jint n, bool platform);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  bool ok_ = false;
  jclass scan_class_ = nullptr;  // global refs from here on
  jmethodID scan_method_ = nullptr;
  jmethodID ids_method_ = nullptr;
  jmethodID statuses_method_ = nullptr;
  jmethodID virtual_method_ = nullptr;
  jmethodID virtual_by_id_ = nullptr;
  jobjectArray thread_array_ = nullptr;  // the roster's, our own reference to it
  jintArray indices_ = nullptr;
  std::vector<jlong> thread_ids_;  // of thread_array_'s threads, read once per list
  jintArray groups_ = nullptr;
  jobjectArray locks_ = nullptr;
  // JvmsightParkedScan's, global refs.
  jclass parked_class_ = nullptr;
  jmethodID parked_method_ = nullptr;
  jmethodID parked_virtual_method_ = nullptr;
  jmethodID stacks_method_ = nullptr;
  jsize parked_capacity_ = 0;
  jintArray parked_out_ = nullptr;
  jintArray parked_groups_ = nullptr;
  jobjectArray parked_locks_ = nullptr;
  jlongArray parked_ids_ = nullptr;
  jintArray parked_tokens_ = nullptr;
  jintArray parked_lock_ids_ = nullptr;
  jobjectArray parked_virtual_ = nullptr;  // Thread[], the last parked_virtual's
};

}  // namespace jvmsight
