#pragma once
// The JVM runtime MXBeans client_java reads (memory, memory pools, buffer
// pools, class loading, compilation), reached through JNI on the agent
// thread at scrape time. Beans and method ids are resolved once; a scrape
// costs about a hundred JNI calls, none of which stops the world.
#include <jni.h>

#include <optional>
#include <string>
#include <vector>

#include "collectors/runtime/os_mx_bean.h"

namespace jvmsight {

struct MemoryUsageReading {
  double init = -1;  // -1: undefined (as MemoryUsage says)
  double used = 0;
  double committed = 0;
  double max = -1;  // -1: undefined
};

struct MemoryPoolReading {
  std::string name;
  std::string type;  // MemoryPoolMXBean.getType(): "heap" or "non_heap" ("" when unread)
  MemoryUsageReading usage;
  std::optional<MemoryUsageReading> collection_usage;  // pools the GC reports on
};

struct BufferPoolReading {
  std::string name;  // "direct", "mapped", ...
  double used_bytes = 0;
  double capacity_bytes = 0;
  double count = 0;
};

struct ClassLoadingReading {
  double loaded = 0;        // currently loaded
  double total_loaded = 0;  // since the JVM started
  double unloaded = 0;
};

// Each part is empty when the JVM would not give it (a family then is left
// out, not reported as 0).
struct RuntimeReading {
  std::optional<MemoryUsageReading> heap;
  std::optional<MemoryUsageReading> nonheap;
  std::optional<double> pending_finalization;
  std::vector<MemoryPoolReading> pools;
  bool pools_read = false;
  std::vector<BufferPoolReading> buffer_pools;
  bool buffer_pools_read = false;
  std::optional<ClassLoadingReading> classes;
  std::optional<double> compilation_ms;  // total JIT compilation time
  OsReading os;                          // not read here: RuntimeCollector reads it in the background
};

class RuntimeMxBeans {
 public:
  RuntimeReading read(JNIEnv* jni);

 private:
  bool resolve(JNIEnv* jni);
  void resolve_usage_fields(JNIEnv* jni, jclass usage);
  bool resolve_memory(JNIEnv* jni, jclass factory);
  bool resolve_pools(JNIEnv* jni, jclass factory);
  bool resolve_buffer_pools(JNIEnv* jni, jclass factory);
  bool resolve_classes_and_compilation(JNIEnv* jni, jclass factory);
  std::optional<MemoryUsageReading> usage_of(JNIEnv* jni, jobject usage);
  void read_memory(JNIEnv* jni, RuntimeReading& out);
  void read_pools(JNIEnv* jni, RuntimeReading& out);
  void read_buffer_pools(JNIEnv* jni, RuntimeReading& out);
  void read_classes_and_compilation(JNIEnv* jni, RuntimeReading& out);

  bool tried_ = false;
  // MemoryUsage
  jmethodID mu_init_ = nullptr, mu_used_ = nullptr, mu_committed_ = nullptr, mu_max_ = nullptr;
  // MemoryUsage's own fields (final longs, the same from JDK 8 to 25): four
  // field reads instead of four Java calls per usage, about 40 calls a
  // scrape; null (the getters, then) if a JDK ever names them otherwise.
  jfieldID mu_init_field_ = nullptr, mu_used_field_ = nullptr, mu_committed_field_ = nullptr, mu_max_field_ = nullptr;
  jobject memory_ = nullptr;  // global refs from here on
  jmethodID heap_ = nullptr, nonheap_ = nullptr, pending_ = nullptr;
  std::vector<jobject> pools_;
  std::vector<std::string> pool_names_;
  std::vector<std::string> pool_types_;
  jmethodID pool_usage_ = nullptr, pool_collection_usage_ = nullptr;
  std::vector<jobject> buffer_pools_;
  std::vector<std::string> buffer_pool_names_;
  jmethodID buffer_used_ = nullptr, buffer_capacity_ = nullptr, buffer_count_ = nullptr;
  jobject classes_ = nullptr;
  jmethodID loaded_ = nullptr, total_loaded_ = nullptr, unloaded_ = nullptr;
  jobject compilation_ = nullptr;  // null: no JIT, or its time is not monitored
  jmethodID compilation_time_ = nullptr;
};

}  // namespace jvmsight
