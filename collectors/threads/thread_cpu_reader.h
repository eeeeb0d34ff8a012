#pragma once
// Per-thread CPU time for a list of thread ids, through
// com.sun.management.ThreadMXBean.getThreadCpuTime(long[]), the one bulk
// read JDK 8 to 25 share (about 1 us a thread on JDK 11+). The JVM runs
// each call in VM state, holding back any safepoint until it returns; on
// JDK 8 it also holds its Threads_lock and looks each id up in a list
// (O(threads) per id: 4 ms for 1,000 threads, 45 ms for 3,000, a second
// for 10,000). So the ids go in calls sized to stay near a tenth of a
// millisecond each, 256 ids from JDK 11 on. Agent thread only; off the
// scrape's path.
#include <jni.h>

#include <cstddef>
#include <vector>

#include "collectors/threads/thread_mx_bean.h"

namespace jvmsight {

class ThreadCpuReader {
 public:
  // ids_in_a_list: the JVM looks ids up in a list (JDK 8 to 10).
  explicit ThreadCpuReader(bool ids_in_a_list) : ids_in_a_list_(ids_in_a_list) {}
  // One call: out[i] becomes the CPU time of thread ids[i] in ns, or -1
  // (ended, or not measured), for i < count, count at most
  // ids_per_call(threads). False when the JVM offers no such reading (said
  // once; out then all -1).
  bool read(JNIEnv* jni, ThreadMxBean& mx, const jlong* ids, size_t count, size_t threads, jlong* out);
  // How many ids one call asks for, at this many threads.
  size_t ids_per_call(size_t threads) const { return ids_per_call(threads, ids_in_a_list_); }
  static size_t ids_per_call(size_t threads, bool ids_in_a_list);

 private:
  bool resolve(JNIEnv* jni, ThreadMxBean& mx);
  bool read_call(JNIEnv* jni, const jlong* ids, size_t count, size_t size, jlong* out);

  const bool ids_in_a_list_;
  bool tried_ = false;
  jobject bean_ = nullptr;  // not owned: ThreadMxBean's global ref
  jmethodID bulk_ = nullptr;
  jlongArray chunk_ = nullptr;  // global ref: the ids of one call
  size_t chunk_size_ = 0;
  std::vector<jlong> padded_;
};

}  // namespace jvmsight
