#pragma once
// The live platform threads, kept as global references between scrapes so a
// scrape costs one JNI field read per thread instead of GetAllThreads (about
// 2-3 ms at 10,000 threads) plus GetThreadState (2 us per thread on JDK 17,
// 60 us on JDK 25). Refreshed with GetAllThreads only when a ThreadStart/End
// event or a terminated entry says the set changed. Agent thread only,
// except on_thread_start_or_end.
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

namespace jvmsight {

class ThreadRoster {
 public:
  // ThreadStart/ThreadEnd callbacks: a relaxed increment, nothing else.
  void on_thread_start_or_end() { changes_.fetch_add(1, std::memory_order_relaxed); }
  // Bumped whenever the set of platform threads changed; the deadlock
  // check's own thread list follows it too.
  const std::atomic<uint64_t>& changes() const { return changes_; }

  // Calls visit(thread, status) for every live platform thread but the agent's
  // own, where status is java.lang.Thread's threadStatus: HotSpot keeps it in
  // JVM TI state bits (alive, runnable, blocked, waiting, sleeping, parked,
  // in Object.wait), but without in-native and suspended. False if the JVM
  // refused (wrong phase, unknown Thread layout).
  bool for_each(JNIEnv* jni, jvmtiEnv* jvmti, const std::function<void(jthread, jint)>& visit);

 private:
  struct Entry {
    jlong tid;
    jobject thread;         // global ref
    jobject status_holder;  // global ref: the Thread (JDK < 19) or its FieldHolder
  };
  bool resolve_layout(JNIEnv* jni);
  bool refresh(JNIEnv* jni, jvmtiEnv* jvmti);
  void release(JNIEnv* jni, Entry& e);

  std::atomic<uint64_t> changes_{0};
  uint64_t seen_changes_ = ~uint64_t{0};
  bool stale_ = true;
  bool layout_tried_ = false;
  jfieldID tid_ = nullptr;
  jfieldID holder_ = nullptr;  // Thread.holder on JDK 19+, else null
  jfieldID status_ = nullptr;
  std::vector<Entry> entries_;
};

}  // namespace jvmsight
