#pragma once
// The live platform threads, kept as global references between uses, so a
// scrape or a deadlock check costs one JNI field read per thread instead of
// GetAllThreads (about 2-3 ms at 10,000 threads, erratic under churn) plus
// GetThreadState (2 us per thread on JDK 17, 60 us on JDK 25). The one
// thread list of the agent: the thread-state collector and the deadlock
// check both read it. Taken again with GetAllThreads only when a
// ThreadStart/End event or a terminated entry says the set changed. Agent
// thread only, except on_thread_start_or_end.
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "collectors/threads/thread_layout.h"

namespace jvmsight {

class ThreadRoster {
 public:
  // ThreadStart/ThreadEnd callbacks: a relaxed increment, nothing else.
  void on_thread_start_or_end() { changes_.fetch_add(1, std::memory_order_relaxed); }
  // Without ThreadStart/End events nothing says when the set changed: the
  // list is then taken afresh on every update.
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
  // Bumped by every update that took a new list.
  uint64_t version() const { return version_; }
  const ThreadLayout& layout() const { return layout_; }

  // update(), then visit(thread, status, daemon) for every live thread. A
  // terminated one is skipped and makes the next update refresh.
  bool for_each(JNIEnv* jni, jvmtiEnv* jvmti, const std::function<void(jthread, jint, bool)>& visit);

 private:
  bool resolve_layout(JNIEnv* jni);
  bool refresh(JNIEnv* jni, jvmtiEnv* jvmti);
  static void release(JNIEnv* jni, jthread thread, jobject holder);

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
  std::vector<bool> daemon_;      // Thread.isDaemon() of threads_[i], read once when listed
};

}  // namespace jvmsight
