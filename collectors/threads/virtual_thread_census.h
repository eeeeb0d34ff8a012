#pragma once
// Live virtual threads (JDK 21+), counted where the JDK keeps them: its
// thread containers (jdk.internal.vm.ThreadContainers, what jcmd
// Thread.dump_to_file walks). Every started virtual thread is in one
// container until it ends: the root container's set (or, with
// -Djdk.trackAllThreads=false, its counter) holds those started through the
// Thread API; each registered container holds its own: a thread-per-task
// executor (Executors.newVirtualThreadPerTaskExecutor) its set of threads, a
// shared container its set of virtual threads. So the count costs a size()
// per container and nothing per thread, and the JVM reports no mount,
// unmount, start or end to JVM TI for it (can_support_virtual_threads costs
// a virtual-thread workload up to 15%: docs/BENCHMARKS.md). Not counted:
// threads forked in a StructuredTaskScope (a preview API through JDK 25),
// whose containers the JDK finds only by walking every thread's scopes.
// JNI reads private fields (JNI does not check module access), so the layout
// is checked once: if this JDK's differs, the census is absent, with one
// info line. Agent thread only.
#include <jni.h>

#include <cstdint>
#include <optional>

namespace jvmsight {

class VirtualThreadCensus {
 public:
  // Resolves the containers' classes and fields; false on JDKs without
  // virtual threads (quietly) or with another layout (one info line).
  bool resolve(JNIEnv* jni);
  bool available() const { return registry_ != nullptr; }
  // Live virtual threads now; nullopt if unavailable or a call failed.
  std::optional<uint64_t> live(JNIEnv* jni) const;

 private:
  bool resolve_root(JNIEnv* jni, jclass containers);
  bool resolve_registered(JNIEnv* jni);
  std::optional<uint64_t> registered(JNIEnv* jni) const;
  // Virtual threads in one registered container; nullopt if a call failed.
  std::optional<uint64_t> virtual_in(JNIEnv* jni, jobject container) const;

  // Global references: the root's set of virtual threads, or its counter.
  jobject root_set_ = nullptr;
  jobject root_counter_ = nullptr;
  jobject registry_ = nullptr;  // Set<WeakReference<ThreadContainer>>
  jclass shared_class_ = nullptr;
  jfieldID shared_virtual_threads_ = nullptr;  // Set<Thread>, null until its first virtual thread
  jclass executor_class_ = nullptr;            // ThreadPerTaskExecutor
  jfieldID executor_threads_ = nullptr;        // Set<Thread>, all from one factory
  jmethodID set_size_ = nullptr;
  jmethodID set_iterator_ = nullptr;
  jmethodID iterator_next_ = nullptr;
  jmethodID thread_is_virtual_ = nullptr;
  jmethodID set_to_array_ = nullptr;
  jmethodID reference_get_ = nullptr;
  jmethodID counter_sum_ = nullptr;
};

}  // namespace jvmsight
