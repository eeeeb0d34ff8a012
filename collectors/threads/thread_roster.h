#pragma once
// The live platform threads, kept as global references between uses, so a
// scrape or a deadlock check reads status words instead of calling
// GetAllThreads (about 2-3 ms at 10,000 threads, erratic under churn) plus
// GetThreadState (2 us per thread on JDK 17, 60 us on JDK 25). The one
// thread list of the agent: the thread-state collector and the deadlock
// check both read it, the Java passes through the one Thread[] of it
// (thread_array). Taken again with GetAllThreads only when a ThreadStart
// event or a terminated entry says the set changed (not ThreadEnd: on JDK
// 21 that event costs every virtual thread). Agent thread only, except
// on_thread_start.
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "collectors/threads/thread_layout.h"

namespace jvmsight {

// Reads the status word of every thread of a Thread[] in one call
// (JavaLockScan: a JIT-compiled loop whose cache misses overlap, 0.05-0.2 ms
// at 10,000 threads, where a JNI GetIntField per thread, a VM transition
// each, took 0.2-0.3 ms). Agent thread only.
class ThreadStatusGather {
 public:
  virtual ~ThreadStatusGather() = default;
  // Writes threads[i]'s status word into out[i] for every i; false if it
  // could not (out then undefined).
  virtual bool gather(jobjectArray threads, jintArray out) = 0;
};

// Told, inside an update that takes a new list, of each thread that joined
// it and each that left it (before its reference is released): the thread
// pools' bookkeeping. Agent thread only.
class RosterWatcher {
 public:
  virtual ~RosterWatcher() = default;
  // A thread listed for the first time; returns the mark the roster keeps
  // for it (for_each hands it to a visit that takes four arguments).
  virtual uint32_t joined(JNIEnv* jni, jthread thread) = 0;
  virtual void left(JNIEnv* jni, jthread thread, uint32_t mark) = 0;
};

class ThreadRoster {
 public:
  static constexpr uint32_t no_mark = UINT32_MAX;

  // ThreadStart callback: one increment, nothing else. Release, paired
  // with update()'s acquire load (docs/ARM64.md): the JVM puts a
  // thread on its list before posting ThreadStart, and on ARM a relaxed add
  // could be seen before that insertion, so the agent could count the change
  // in a listing that lacks the thread, and miss it until the next change.
  void on_thread_start() { changes_.fetch_add(1, std::memory_order_release); }
  // ThreadStart events so far: platform threads started (VirtualThreadStarts).
  uint64_t platform_starts() const { return changes_.load(std::memory_order_acquire); }
  // Without ThreadStart events nothing says when the set grew: the list
  // is then taken afresh on every update.
  void set_change_events(bool enabled) { change_events_ = enabled; }

  // Brings the list up to date if the set changed, but not again within
  // min_interval of the last refresh. False if the JVM refused (wrong
  // phase, unknown Thread layout).
  bool update(JNIEnv* jni, jvmtiEnv* jvmti, std::chrono::milliseconds min_interval = {});
  // After a successful update: the threads (global references, valid until
  // an update changes the list), the agent's own thread left out.
  const std::vector<jthread>& threads() const { return threads_; }
  // threadStatus of threads()[i] (see ThreadLayout::status_of_holder).
  jint status(JNIEnv* jni, size_t i) const { return layout_.status_of_holder(jni, holders_[i]); }
  // threads() as a Thread[] (a global reference the roster owns, valid
  // until an update changes the list; take your own to keep it longer),
  // made on first use after each new list; null if the JVM refused.
  jobjectArray thread_array(JNIEnv* jni);
  // Bumped by every update that took a new list.
  uint64_t version() const { return version_; }
  const ThreadLayout& layout() const { return layout_; }

  // Where for_each reads status words: all at once, from thread_array()
  // (null, the default: one JNI field read per thread). Not owned; a
  // gather that fails is dropped for good.
  void set_status_gather(ThreadStatusGather* gather) { gather_ = gather; }
  // Not owned; set before the first update, or threads already listed
  // keep no_mark.
  void set_watcher(RosterWatcher* watcher) { watcher_ = watcher; }
  // The watcher's mark of threads()[i].
  uint32_t mark(size_t i) const { return marks_[i]; }
  // update(), then visit(thread, status, daemon) for every live thread,
  // or visit(thread, status, daemon, mark). A terminated one is skipped and
  // makes the next update refresh. A template: the visit runs once per
  // thread per scrape, inlined.
  template <class Visit>
  bool for_each(JNIEnv* jni, jvmtiEnv* jvmti, Visit&& visit) {
    if (!update(jni, jvmti)) return false;
    read_statuses(jni);
    for (size_t i = 0; i < threads_.size(); ++i) {
      const jint s = statuses_[i];
      if (s & JVMTI_THREAD_STATE_TERMINATED) {
        stale_ = true;  // drop it at the next update; ThreadMXBean no longer lists it either
        continue;
      }
      if (!(s & JVMTI_THREAD_STATE_ALIVE)) continue;  // not started yet: not a live thread
      if constexpr (std::is_invocable_v<Visit&, jthread, jint, bool, uint32_t>)
        visit(threads_[i], s, daemon_[i] != 0, marks_[i]);
      else
        visit(threads_[i], s, daemon_[i] != 0);
    }
    return true;
  }

 private:
  bool resolve_layout(JNIEnv* jni);
  bool refresh(JNIEnv* jni, jvmtiEnv* jvmti);
  // New global references to a newly listed thread and its status holder; false if either is missing.
  bool hold(JNIEnv* jni, jthread local, jthread& thread, jobject& holder);
  static void release(JNIEnv* jni, jthread thread, jobject holder);
  void drop_arrays(JNIEnv* jni);
  // The status word of every listed thread into statuses_.
  void read_statuses(JNIEnv* jni);
  bool gather_statuses(JNIEnv* jni);

  std::atomic<uint64_t> changes_{0};
  bool change_events_ = true;
  uint64_t seen_changes_ = 0;
  bool stale_ = true;
  std::chrono::steady_clock::time_point refreshed_at_{};
  uint64_t version_ = 0;
  bool layout_tried_ = false;
  bool layout_ok_ = false;
  ThreadLayout layout_;
  std::vector<jthread> threads_;  // global refs
  std::vector<jobject> holders_;  // global refs: the Thread (JDK < 19) or its FieldHolder
  // Thread.isDaemon() of threads_[i], read once when listed; bytes, not
  // vector<bool>'s bits: no shift and mask per thread in the walk.
  std::vector<uint8_t> daemon_;
  std::vector<uint32_t> marks_;  // the watcher's, of threads_[i]
  std::vector<jint> statuses_;   // for_each's status words, kept to spare an allocation per walk
  ThreadStatusGather* gather_ = nullptr;
  RosterWatcher* watcher_ = nullptr;
  jobjectArray thread_array_ = nullptr;  // global ref: threads_ as a Thread[], made on demand
  jintArray status_array_ = nullptr;     // global ref: gather's out, as long as threads_
};

}  // namespace jvmsight
