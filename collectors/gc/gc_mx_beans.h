#pragma once
// The GarbageCollectorMXBeans reached through JNI on the agent thread: their
// counts and times (client_java's jvm_gc_collection_seconds) and their
// GarbageCollectionNotificationInfo (collector, action, cause per collection).
//
// Notifications need a javax.management.NotificationListener, i.e. Java code.
// Rather than define a class inside someone else's JVM, the listener is a
// MethodHandleProxies interface instance whose method is a bound
// ArrayBlockingQueue.offer: the JVM's service thread delivers each
// notification into a bounded queue (offer never blocks; a full queue loses
// the notification, its pause is then "unknown"), and the agent thread
// drains it. No agent code ever runs on a JVM thread but the agent's own.
#include <jni.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collectors/gc/gc_pause_matcher.h"

namespace jvmsight {

struct GcBeanReading {
  std::string name;
  int64_t count = 0;
  int64_t time_ms = 0;
};

class GcMxBeans {
 public:
  // Capacity of the notification queue: minutes of young GCs between drains.
  static constexpr jint notification_capacity = 4096;

  // Agent thread only. Resolves the beans (once).
  bool resolve(JNIEnv* jni);
  // Installs the notification listener (once); false if it cannot be.
  bool listen(JNIEnv* jni);
  const std::vector<std::string>& names() const { return names_; }
  // Current count and time of every collector, in the JVM's order.
  std::vector<GcBeanReading> read(JNIEnv* jni);
  // Takes every delivered notification.
  std::vector<GcNotification> drain(JNIEnv* jni);
  bool listening() const { return queue_ != nullptr; }

  // Beans that time whole concurrent cycles (ZGC, Shenandoah), not pauses.
  static bool is_cycle_collector(const std::string& name);

 private:
  bool install_listener(JNIEnv* jni);
  // A NotificationListener whose handleNotification offers to a new bounded
  // queue (returned in queue); null on failure. Local references.
  jobject queue_listener(JNIEnv* jni, jobject& queue);
  // Adds listener to every bean that emits; how many took it.
  int register_listener(JNIEnv* jni, jobject listener);
  bool resolve_notification_reader(JNIEnv* jni);

  bool tried_ = false;
  bool tried_listen_ = false;
  std::vector<jobject> beans_;  // global refs
  std::vector<std::string> names_;
  jmethodID count_ = nullptr;
  jmethodID time_ = nullptr;

  jobject queue_ = nullptr;  // global ref to the ArrayBlockingQueue
  jmethodID poll_ = nullptr;
  jmethodID user_data_ = nullptr;
  jclass info_class_ = nullptr;  // global ref: GarbageCollectionNotificationInfo
  jmethodID info_from_ = nullptr;
  jmethodID info_name_ = nullptr;
  jmethodID info_action_ = nullptr;
  jmethodID info_cause_ = nullptr;
  jmethodID info_gc_info_ = nullptr;
  jmethodID gc_id_ = nullptr;
  jmethodID gc_start_ = nullptr;
  jmethodID gc_end_ = nullptr;
  // GcInfo's per-pool memory usage (Map<String, MemoryUsage>), for allocation.
  jmethodID gc_before_ = nullptr, gc_after_ = nullptr, map_get_ = nullptr, map_keys_ = nullptr, set_to_array_ = nullptr,
            usage_used_ = nullptr;
  std::vector<PoolUsageChange> pool_changes(JNIEnv* jni, jobject gc_info);
};

}  // namespace jvmsight
