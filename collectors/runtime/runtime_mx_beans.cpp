#include "collectors/runtime/runtime_mx_beans.h"

#include "collectors/runtime/runtime_collector.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

// A bean from a static no-argument ManagementFactory getter, as a global ref.
jobject platform_bean(JNIEnv* jni, jclass factory, const char* getter, const char* signature) {
  jmethodID get = jni->GetStaticMethodID(factory, getter, signature);
  if (!jni_ok(jni, getter) || get == nullptr) return nullptr;
  jobject bean = jni->CallStaticObjectMethod(factory, get);
  if (!jni_ok(jni, getter) || bean == nullptr) return nullptr;
  return jni->NewGlobalRef(bean);
}

}  // namespace

bool RuntimeMxBeans::resolve(JNIEnv* jni) {
  if (tried_) return memory_ != nullptr;
  tried_ = true;
  LocalFrame frame(jni, 64);
  jclass factory = jni->FindClass("java/lang/management/ManagementFactory");
  jclass usage = jni->FindClass("java/lang/management/MemoryUsage");
  if (!jni_ok(jni, "runtime MXBean classes") || !factory || !usage) return false;
  mu_init_ = jni->GetMethodID(usage, "getInit", "()J");
  mu_used_ = jni->GetMethodID(usage, "getUsed", "()J");
  mu_committed_ = jni->GetMethodID(usage, "getCommitted", "()J");
  mu_max_ = jni->GetMethodID(usage, "getMax", "()J");
  if (!jni_ok(jni, "MemoryUsage methods")) return false;
  resolve_usage_fields(jni, usage);
  // Each part on its own: a JVM without one (e.g. no JIT) still gives the rest.
  bool memory = resolve_memory(jni, factory);
  resolve_pools(jni, factory);
  resolve_buffer_pools(jni, factory);
  resolve_classes_and_compilation(jni, factory);
  if (!memory) log::warn("MemoryMXBean unavailable: the jvm_memory families are not served");
  return memory;
}

void RuntimeMxBeans::resolve_usage_fields(JNIEnv* jni, jclass usage) {
  jfieldID init = jni->GetFieldID(usage, "init", "J");
  jfieldID used = init ? jni->GetFieldID(usage, "used", "J") : nullptr;
  jfieldID committed = used ? jni->GetFieldID(usage, "committed", "J") : nullptr;
  jfieldID max = committed ? jni->GetFieldID(usage, "max", "J") : nullptr;
  if (jni->ExceptionCheck()) jni->ExceptionClear();  // NoSuchFieldError: the getters serve, as they always can
  if (max == nullptr) {
    log::debug("MemoryUsage lacks the fields init, used, committed and max: read through its getters");
    return;
  }
  mu_init_field_ = init;
  mu_used_field_ = used;
  mu_committed_field_ = committed;
  mu_max_field_ = max;
}

bool RuntimeMxBeans::resolve_memory(JNIEnv* jni, jclass factory) {
  jclass bean = jni->FindClass("java/lang/management/MemoryMXBean");
  if (!jni_ok(jni, "FindClass(MemoryMXBean)") || bean == nullptr) return false;
  heap_ = jni->GetMethodID(bean, "getHeapMemoryUsage", "()Ljava/lang/management/MemoryUsage;");
  nonheap_ = jni->GetMethodID(bean, "getNonHeapMemoryUsage", "()Ljava/lang/management/MemoryUsage;");
  pending_ = jni->GetMethodID(bean, "getObjectPendingFinalizationCount", "()I");
  if (!jni_ok(jni, "MemoryMXBean methods")) return false;
  memory_ = platform_bean(jni, factory, "getMemoryMXBean", "()Ljava/lang/management/MemoryMXBean;");
  return memory_ != nullptr;
}

bool RuntimeMxBeans::resolve_pools(JNIEnv* jni, jclass factory) {
  jclass bean = jni->FindClass("java/lang/management/MemoryPoolMXBean");
  if (!jni_ok(jni, "FindClass(MemoryPoolMXBean)") || bean == nullptr) return false;
  jmethodID name = jni->GetMethodID(bean, "getName", "()Ljava/lang/String;");
  pool_usage_ = jni->GetMethodID(bean, "getUsage", "()Ljava/lang/management/MemoryUsage;");
  pool_collection_usage_ = jni->GetMethodID(bean, "getCollectionUsage", "()Ljava/lang/management/MemoryUsage;");
  jmethodID get = jni->GetStaticMethodID(factory, "getMemoryPoolMXBeans", "()Ljava/util/List;");
  if (!jni_ok(jni, "MemoryPoolMXBean methods")) return false;
  jobject list = jni->CallStaticObjectMethod(factory, get);
  if (!jni_ok(jni, "getMemoryPoolMXBeans") || list == nullptr) return false;
  // The pools of a JVM are fixed once it runs: remember them, and their
  // type (MemoryType HEAP or NON_HEAP, which jvm.memory.type spells
  // lowercase).
  jmethodID type = jni->GetMethodID(bean, "getType", "()Ljava/lang/management/MemoryType;");
  jclass memory_type = jni->FindClass("java/lang/Enum");
  jmethodID type_name = memory_type ? jni->GetMethodID(memory_type, "name", "()Ljava/lang/String;") : nullptr;
  if (!jni_ok(jni, "MemoryPoolMXBean.getType")) type = nullptr;
  for (auto& b : named_beans(jni, list, name)) {
    std::string t;
    if (type && type_name) {
      jobject value = jni->CallObjectMethod(b.bean, type);
      std::string n = jni_ok(jni, "MemoryPoolMXBean.getType") && value
                          ? java_string(jni, jni->CallObjectMethod(value, type_name))
                          : "";
      if (!jni_ok(jni, "MemoryType.name")) n.clear();
      t = n == "HEAP" ? "heap" : n == "NON_HEAP" ? "non_heap" : "";
    }
    pools_.push_back(b.bean);
    pool_names_.push_back(std::move(b.name));
    pool_types_.push_back(std::move(t));
  }
  return true;
}

bool RuntimeMxBeans::resolve_buffer_pools(JNIEnv* jni, jclass factory) {
  jclass bean = jni->FindClass("java/lang/management/BufferPoolMXBean");
  if (!jni_ok(jni, "FindClass(BufferPoolMXBean)") || bean == nullptr) return false;
  jmethodID name = jni->GetMethodID(bean, "getName", "()Ljava/lang/String;");
  buffer_used_ = jni->GetMethodID(bean, "getMemoryUsed", "()J");
  buffer_capacity_ = jni->GetMethodID(bean, "getTotalCapacity", "()J");
  buffer_count_ = jni->GetMethodID(bean, "getCount", "()J");
  jmethodID get = jni->GetStaticMethodID(factory, "getPlatformMXBeans", "(Ljava/lang/Class;)Ljava/util/List;");
  if (!jni_ok(jni, "BufferPoolMXBean methods")) return false;
  jobject list = jni->CallStaticObjectMethod(factory, get, bean);
  if (!jni_ok(jni, "getPlatformMXBeans(BufferPoolMXBean)") || list == nullptr) return false;
  for (auto& b : named_beans(jni, list, name)) {
    buffer_pools_.push_back(b.bean);
    buffer_pool_names_.push_back(std::move(b.name));
  }
  return true;
}

bool RuntimeMxBeans::resolve_classes_and_compilation(JNIEnv* jni, jclass factory) {
  jclass classes = jni->FindClass("java/lang/management/ClassLoadingMXBean");
  if (jni_ok(jni, "FindClass(ClassLoadingMXBean)") && classes != nullptr) {
    loaded_ = jni->GetMethodID(classes, "getLoadedClassCount", "()I");
    total_loaded_ = jni->GetMethodID(classes, "getTotalLoadedClassCount", "()J");
    unloaded_ = jni->GetMethodID(classes, "getUnloadedClassCount", "()J");
    if (jni_ok(jni, "ClassLoadingMXBean methods"))
      classes_ = platform_bean(jni, factory, "getClassLoadingMXBean", "()Ljava/lang/management/ClassLoadingMXBean;");
  }
  jclass compilation = jni->FindClass("java/lang/management/CompilationMXBean");
  if (!jni_ok(jni, "FindClass(CompilationMXBean)") || compilation == nullptr) return false;
  jmethodID supported = jni->GetMethodID(compilation, "isCompilationTimeMonitoringSupported", "()Z");
  compilation_time_ = jni->GetMethodID(compilation, "getTotalCompilationTime", "()J");
  if (!jni_ok(jni, "CompilationMXBean methods")) return false;
  // Null when the JVM runs without a JIT (-Xint).
  jobject bean = platform_bean(jni, factory, "getCompilationMXBean", "()Ljava/lang/management/CompilationMXBean;");
  if (bean == nullptr) return false;
  if (jni->CallBooleanMethod(bean, supported) && jni_ok(jni, "isCompilationTimeMonitoringSupported")) {
    compilation_ = bean;
  } else {
    jni->DeleteGlobalRef(bean);
  }
  return compilation_ != nullptr;
}

std::optional<MemoryUsageReading> RuntimeMxBeans::usage_of(JNIEnv* jni, jobject usage) {
  if (usage == nullptr) return std::nullopt;
  MemoryUsageReading r;
  if (mu_max_field_ != nullptr) {
    r.init = static_cast<double>(jni->GetLongField(usage, mu_init_field_));
    r.used = static_cast<double>(jni->GetLongField(usage, mu_used_field_));
    r.committed = static_cast<double>(jni->GetLongField(usage, mu_committed_field_));
    r.max = static_cast<double>(jni->GetLongField(usage, mu_max_field_));
    return r;
  }
  r.init = static_cast<double>(jni->CallLongMethod(usage, mu_init_));
  r.used = static_cast<double>(jni->CallLongMethod(usage, mu_used_));
  r.committed = static_cast<double>(jni->CallLongMethod(usage, mu_committed_));
  r.max = static_cast<double>(jni->CallLongMethod(usage, mu_max_));
  if (!jni_ok(jni, "MemoryUsage getters")) return std::nullopt;
  return r;
}

void RuntimeMxBeans::read_memory(JNIEnv* jni, RuntimeReading& out) {
  if (memory_ == nullptr) return;
  LocalFrame frame(jni, 8);
  jobject heap = jni->CallObjectMethod(memory_, heap_);
  if (jni_ok(jni, "MemoryMXBean.getHeapMemoryUsage")) out.heap = usage_of(jni, heap);
  jobject nonheap = jni->CallObjectMethod(memory_, nonheap_);
  if (jni_ok(jni, "MemoryMXBean.getNonHeapMemoryUsage")) out.nonheap = usage_of(jni, nonheap);
  jint pending = jni->CallIntMethod(memory_, pending_);
  if (jni_ok(jni, "MemoryMXBean.getObjectPendingFinalizationCount")) out.pending_finalization = pending;
}

void RuntimeMxBeans::read_pools(JNIEnv* jni, RuntimeReading& out) {
  out.pools_read = !pools_.empty();
  for (size_t i = 0; i < pools_.size(); ++i) {
    LocalFrame frame(jni, 8);
    jobject usage = jni->CallObjectMethod(pools_[i], pool_usage_);
    if (!jni_ok(jni, "MemoryPoolMXBean.getUsage")) continue;
    auto reading = usage_of(jni, usage);
    if (!reading) continue;
    MemoryPoolReading pool{pool_names_[i], pool_types_[i], *reading, std::nullopt};
    jobject collection = jni->CallObjectMethod(pools_[i], pool_collection_usage_);
    if (jni_ok(jni, "MemoryPoolMXBean.getCollectionUsage")) pool.collection_usage = usage_of(jni, collection);
    out.pools.push_back(std::move(pool));
  }
}

void RuntimeMxBeans::read_buffer_pools(JNIEnv* jni, RuntimeReading& out) {
  out.buffer_pools_read = !buffer_pools_.empty();
  for (size_t i = 0; i < buffer_pools_.size(); ++i) {
    BufferPoolReading b;
    b.name = buffer_pool_names_[i];
    b.used_bytes = static_cast<double>(jni->CallLongMethod(buffer_pools_[i], buffer_used_));
    b.capacity_bytes = static_cast<double>(jni->CallLongMethod(buffer_pools_[i], buffer_capacity_));
    b.count = static_cast<double>(jni->CallLongMethod(buffer_pools_[i], buffer_count_));
    if (jni_ok(jni, "BufferPoolMXBean getters")) out.buffer_pools.push_back(std::move(b));
  }
}

void RuntimeMxBeans::read_classes_and_compilation(JNIEnv* jni, RuntimeReading& out) {
  if (classes_ != nullptr) {
    ClassLoadingReading c;
    c.loaded = jni->CallIntMethod(classes_, loaded_);
    c.total_loaded = static_cast<double>(jni->CallLongMethod(classes_, total_loaded_));
    c.unloaded = static_cast<double>(jni->CallLongMethod(classes_, unloaded_));
    if (jni_ok(jni, "ClassLoadingMXBean getters")) out.classes = c;
  }
  if (compilation_ != nullptr) {
    jlong ms = jni->CallLongMethod(compilation_, compilation_time_);
    if (jni_ok(jni, "CompilationMXBean.getTotalCompilationTime")) out.compilation_ms = static_cast<double>(ms);
  }
}

JvmIdentity RuntimeCollector::read_identity(JNIEnv* jni) {
  JvmIdentity id;
  for (auto [field, key] :
       {std::pair{&JvmIdentity::version, "java.runtime.version"}, std::pair{&JvmIdentity::vendor, "java.vm.vendor"},
        std::pair{&JvmIdentity::runtime, "java.runtime.name"}})
    if (std::string value = java_system_property(jni, key); !value.empty()) id.*field = value;
  return id;
}

RuntimeReading RuntimeMxBeans::read(JNIEnv* jni) {
  RuntimeReading out;
  resolve(jni);
  read_memory(jni, out);
  read_pools(jni, out);
  read_buffer_pools(jni, out);
  read_classes_and_compilation(jni, out);
  return out;
}

}  // namespace jvmsight
