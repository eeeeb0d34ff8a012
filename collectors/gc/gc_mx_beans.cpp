#include "collectors/gc/gc_mx_beans.h"

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

std::string to_string(JNIEnv* jni, jstring s) {
  if (s == nullptr || jni->ExceptionCheck()) return "";
  const char* chars = jni->GetStringUTFChars(s, nullptr);
  std::string out = chars ? chars : "";
  if (chars) jni->ReleaseStringUTFChars(s, chars);
  return out;
}

jclass find(JNIEnv* jni, const char* name) {
  jclass c = jni->FindClass(name);
  if (!jni_ok(jni, name) || c == nullptr) return nullptr;
  return c;
}

}  // namespace

bool GcMxBeans::is_cycle_collector(const std::string& name) {
  static const std::string suffix = " Cycles";
  return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool GcMxBeans::listen(JNIEnv* jni) {
  if (tried_listen_) return listening();
  tried_listen_ = true;
  if (!resolve(jni)) return false;
  if (!install_listener(jni)) {
    log::warn("GC notifications unavailable: pauses are measured but not attributed to collectors");
    return false;
  }
  return true;
}

bool GcMxBeans::resolve(JNIEnv* jni) {
  if (tried_) return !beans_.empty();
  tried_ = true;
  LocalFrame frame(jni, 64);
  jclass factory = find(jni, "java/lang/management/ManagementFactory");
  jclass bean_class = find(jni, "java/lang/management/GarbageCollectorMXBean");
  jclass mgr = find(jni, "java/lang/management/MemoryManagerMXBean");
  if (!factory || !bean_class || !mgr) return false;
  jmethodID get_beans = jni->GetStaticMethodID(factory, "getGarbageCollectorMXBeans", "()Ljava/util/List;");
  jmethodID name = jni->GetMethodID(mgr, "getName", "()Ljava/lang/String;");
  count_ = jni->GetMethodID(bean_class, "getCollectionCount", "()J");
  time_ = jni->GetMethodID(bean_class, "getCollectionTime", "()J");
  if (!jni_ok(jni, "GarbageCollectorMXBean methods")) return false;
  jobject beans = jni->CallStaticObjectMethod(factory, get_beans);
  if (!jni_ok(jni, "ManagementFactory.getGarbageCollectorMXBeans()") || beans == nullptr) return false;
  for (auto& b : named_beans(jni, beans, name)) {
    beans_.push_back(b.bean);
    names_.push_back(std::move(b.name));
  }
  return !beans_.empty();
}

// The listener in three steps: a queue and a NotificationListener proxy
// whose method offers to it, the proxy registered with every bean, and the
// methods drain() reads notifications with.
bool GcMxBeans::install_listener(JNIEnv* jni) {
  LocalFrame frame(jni, 64);
  jobject queue = nullptr;
  jobject listener = queue_listener(jni, queue);
  if (listener == nullptr || register_listener(jni, listener) == 0 || !resolve_notification_reader(jni)) return false;
  queue_ = jni->NewGlobalRef(queue);
  return queue_ != nullptr;
}

jobject GcMxBeans::queue_listener(JNIEnv* jni, jobject& queue) {
  jclass abq = find(jni, "java/util/concurrent/ArrayBlockingQueue");
  jclass lookup_class = find(jni, "java/lang/invoke/MethodHandles$Lookup");
  jclass handles = find(jni, "java/lang/invoke/MethodHandles");
  jclass handle = find(jni, "java/lang/invoke/MethodHandle");
  jclass method_type = find(jni, "java/lang/invoke/MethodType");
  jclass proxies = find(jni, "java/lang/invoke/MethodHandleProxies");
  jclass object = find(jni, "java/lang/Object");
  jclass klass = find(jni, "java/lang/Class");
  jclass boolean = find(jni, "java/lang/Boolean");
  jclass listener = find(jni, "javax/management/NotificationListener");
  if (!abq || !lookup_class || !handles || !handle || !method_type || !proxies || !object || !klass || !boolean ||
      !listener)
    return nullptr;
  // queue = new ArrayBlockingQueue(capacity)
  queue = jni->NewObject(abq, jni->GetMethodID(abq, "<init>", "(I)V"), notification_capacity);
  if (!jni_ok(jni, "new ArrayBlockingQueue") || queue == nullptr) return nullptr;
  // offer = publicLookup().findVirtual(ArrayBlockingQueue, "offer", methodType(boolean, Object)).bindTo(queue)
  // (publicLookup, not lookup(): there is no Java caller on this thread.)
  jobject lookup = jni->CallStaticObjectMethod(
      handles, jni->GetStaticMethodID(handles, "publicLookup", "()Ljava/lang/invoke/MethodHandles$Lookup;"));
  jobject boolean_type =
      jni->GetStaticObjectField(boolean, jni->GetStaticFieldID(boolean, "TYPE", "Ljava/lang/Class;"));
  jobject offer_type = jni->CallStaticObjectMethod(
      method_type,
      jni->GetStaticMethodID(method_type, "methodType",
                             "(Ljava/lang/Class;Ljava/lang/Class;)Ljava/lang/invoke/MethodType;"),
      boolean_type, object);
  if (!jni_ok(jni, "MethodType for offer") || lookup == nullptr || offer_type == nullptr) return nullptr;
  jstring offer_name = jni->NewStringUTF("offer");
  jobject offer = jni->CallObjectMethod(
      lookup,
      jni->GetMethodID(
          lookup_class, "findVirtual",
          "(Ljava/lang/Class;Ljava/lang/String;Ljava/lang/invoke/MethodType;)Ljava/lang/invoke/MethodHandle;"),
      abq, offer_name, offer_type);
  if (!jni_ok(jni, "findVirtual(ArrayBlockingQueue.offer)") || offer == nullptr) return nullptr;
  jobject bound = jni->CallObjectMethod(
      offer, jni->GetMethodID(handle, "bindTo", "(Ljava/lang/Object;)Ljava/lang/invoke/MethodHandle;"), queue);
  if (!jni_ok(jni, "MethodHandle.bindTo") || bound == nullptr) return nullptr;
  // handle(notification, handback) = offer(notification): drop the handback.
  jobjectArray dropped = jni->NewObjectArray(1, klass, object);
  jobject two_args = jni->CallStaticObjectMethod(
      handles,
      jni->GetStaticMethodID(handles, "dropArguments",
                             "(Ljava/lang/invoke/MethodHandle;I[Ljava/lang/Class;)Ljava/lang/invoke/MethodHandle;"),
      bound, 1, dropped);
  if (!jni_ok(jni, "MethodHandles.dropArguments") || two_args == nullptr) return nullptr;
  jobject proxy = jni->CallStaticObjectMethod(
      proxies,
      jni->GetStaticMethodID(proxies, "asInterfaceInstance",
                             "(Ljava/lang/Class;Ljava/lang/invoke/MethodHandle;)Ljava/lang/Object;"),
      listener, two_args);
  if (!jni_ok(jni, "MethodHandleProxies.asInterfaceInstance(NotificationListener)")) return nullptr;
  return proxy;
}

int GcMxBeans::register_listener(JNIEnv* jni, jobject listener) {
  jclass emitter = find(jni, "javax/management/NotificationEmitter");
  if (emitter == nullptr) return 0;
  jmethodID add = jni->GetMethodID(
      emitter, "addNotificationListener",
      "(Ljavax/management/NotificationListener;Ljavax/management/NotificationFilter;Ljava/lang/Object;)V");
  if (!jni_ok(jni, "NotificationEmitter.addNotificationListener")) return 0;
  int added = 0;
  for (jobject bean : beans_) {
    if (!jni->IsInstanceOf(bean, emitter)) continue;
    jni->CallVoidMethod(bean, add, listener, nullptr, nullptr);
    if (jni_ok(jni, "addNotificationListener")) ++added;
  }
  return added;
}

bool GcMxBeans::resolve_notification_reader(JNIEnv* jni) {
  jclass abq = find(jni, "java/util/concurrent/ArrayBlockingQueue");
  jclass notification = find(jni, "javax/management/Notification");
  jclass info = find(jni, "com/sun/management/GarbageCollectionNotificationInfo");
  jclass gc_info = find(jni, "com/sun/management/GcInfo");
  if (!abq || !notification || !info || !gc_info) return false;
  poll_ = jni->GetMethodID(abq, "poll", "()Ljava/lang/Object;");
  user_data_ = jni->GetMethodID(notification, "getUserData", "()Ljava/lang/Object;");
  info_from_ = jni->GetStaticMethodID(
      info, "from",
      "(Ljavax/management/openmbean/CompositeData;)Lcom/sun/management/GarbageCollectionNotificationInfo;");
  info_name_ = jni->GetMethodID(info, "getGcName", "()Ljava/lang/String;");
  info_action_ = jni->GetMethodID(info, "getGcAction", "()Ljava/lang/String;");
  info_cause_ = jni->GetMethodID(info, "getGcCause", "()Ljava/lang/String;");
  info_gc_info_ = jni->GetMethodID(info, "getGcInfo", "()Lcom/sun/management/GcInfo;");
  gc_id_ = jni->GetMethodID(gc_info, "getId", "()J");
  gc_start_ = jni->GetMethodID(gc_info, "getStartTime", "()J");
  gc_end_ = jni->GetMethodID(gc_info, "getEndTime", "()J");
  if (!jni_ok(jni, "GarbageCollectionNotificationInfo methods")) return false;
  jclass map = find(jni, "java/util/Map");
  jclass set = find(jni, "java/util/Set");
  jclass usage = find(jni, "java/lang/management/MemoryUsage");
  if (map && set && usage) {
    gc_before_ = jni->GetMethodID(gc_info, "getMemoryUsageBeforeGc", "()Ljava/util/Map;");
    gc_after_ = jni->GetMethodID(gc_info, "getMemoryUsageAfterGc", "()Ljava/util/Map;");
    map_get_ = jni->GetMethodID(map, "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
    map_keys_ = jni->GetMethodID(map, "keySet", "()Ljava/util/Set;");
    set_to_array_ = jni->GetMethodID(set, "toArray", "()[Ljava/lang/Object;");
    usage_used_ = jni->GetMethodID(usage, "getUsed", "()J");
    if (!jni_ok(jni, "GcInfo memory usage methods")) gc_before_ = nullptr;  // no allocation counts, pauses still
  }
  info_class_ = static_cast<jclass>(jni->NewGlobalRef(info));
  return info_class_ != nullptr;
}

std::vector<GcBeanReading> GcMxBeans::read(JNIEnv* jni) {
  std::vector<GcBeanReading> out;
  if (!resolve(jni)) return out;
  for (size_t i = 0; i < beans_.size(); ++i) {
    GcBeanReading r;
    r.name = names_[i];
    r.count = jni->CallLongMethod(beans_[i], count_);
    r.time_ms = jni->CallLongMethod(beans_[i], time_);
    if (!jni_ok(jni, "GarbageCollectorMXBean counters")) continue;
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<GcNotification> GcMxBeans::drain(JNIEnv* jni) {
  std::vector<GcNotification> out;
  if (queue_ == nullptr) return out;
  for (jint i = 0; i < notification_capacity; ++i) {
    LocalFrame frame(jni, 32);
    jobject n = jni->CallObjectMethod(queue_, poll_);
    if (!jni_ok(jni, "notification queue poll") || n == nullptr) break;
    jobject data = jni->CallObjectMethod(n, user_data_);
    if (!jni_ok(jni, "Notification.getUserData") || data == nullptr) continue;
    jobject info = jni->CallStaticObjectMethod(info_class_, info_from_, data);
    if (!jni_ok(jni, "GarbageCollectionNotificationInfo.from") || info == nullptr) continue;
    GcNotification g;
    g.gc = to_string(jni, static_cast<jstring>(jni->CallObjectMethod(info, info_name_)));
    g.action = to_string(jni, static_cast<jstring>(jni->CallObjectMethod(info, info_action_)));
    g.cause = to_string(jni, static_cast<jstring>(jni->CallObjectMethod(info, info_cause_)));
    jobject gc = jni->CallObjectMethod(info, info_gc_info_);
    if (!jni_ok(jni, "GarbageCollectionNotificationInfo getters") || gc == nullptr) continue;
    g.id = jni->CallLongMethod(gc, gc_id_);
    g.start_ms = jni->CallLongMethod(gc, gc_start_);
    g.end_ms = jni->CallLongMethod(gc, gc_end_);
    if (!jni_ok(jni, "GcInfo getters")) continue;
    g.pools = pool_changes(jni, gc);
    out.push_back(std::move(g));
  }
  return out;
}

// Every pool of the before-GC map with its used bytes before and after (as
// client_java's allocation counter reads them).
std::vector<PoolUsageChange> GcMxBeans::pool_changes(JNIEnv* jni, jobject gc_info) {
  std::vector<PoolUsageChange> out;
  if (gc_before_ == nullptr) return out;
  jobject before = jni->CallObjectMethod(gc_info, gc_before_);
  jobject after = jni->CallObjectMethod(gc_info, gc_after_);
  jobject keys = before ? jni->CallObjectMethod(before, map_keys_) : nullptr;
  auto names = keys ? static_cast<jobjectArray>(jni->CallObjectMethod(keys, set_to_array_)) : nullptr;
  if (!jni_ok(jni, "GcInfo memory usage") || after == nullptr || names == nullptr) return out;
  jsize n = jni->GetArrayLength(names);
  for (jsize i = 0; i < n; ++i) {
    jobject name = jni->GetObjectArrayElement(names, i);
    jobject used_before = jni->CallObjectMethod(before, map_get_, name);
    jobject used_after = jni->CallObjectMethod(after, map_get_, name);
    if (jni_ok(jni, "GcInfo pool usage") && used_before && used_after) {
      PoolUsageChange c;
      c.pool = to_string(jni, static_cast<jstring>(name));
      c.before_used = jni->CallLongMethod(used_before, usage_used_);
      c.after_used = jni->CallLongMethod(used_after, usage_used_);
      if (jni_ok(jni, "MemoryUsage.getUsed")) out.push_back(std::move(c));
    }
    jni->DeleteLocalRef(used_before);
    jni->DeleteLocalRef(used_after);
    jni->DeleteLocalRef(name);
  }
  return out;
}

}  // namespace jvmsight
