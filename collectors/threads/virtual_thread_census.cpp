#include "collectors/threads/virtual_thread_census.h"

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

constexpr const char* containers_class = "jdk/internal/vm/ThreadContainers";

// A class, or null with any pending exception cleared (absent is normal before 21).
jclass find(JNIEnv* jni, const char* name) {
  jclass c = jni->FindClass(name);
  if (c == nullptr) jni->ExceptionClear();
  return c;
}

jobject static_object(JNIEnv* jni, jclass c, const char* name, const char* sig) {
  jfieldID f = c != nullptr ? jni->GetStaticFieldID(c, name, sig) : nullptr;
  if (f == nullptr) {
    jni->ExceptionClear();
    return nullptr;
  }
  return jni->GetStaticObjectField(c, f);
}

bool layout_differs(const char* what) {
  log::info("this JDK's thread containers differ from JDK 21-25's (", what,
            "): jvmsight_virtual_threads_live is absent");
  return false;
}

}  // namespace

bool VirtualThreadCensus::resolve(JNIEnv* jni) {
  if (available()) return true;
  LocalFrame frame(jni, 16);
  if (!frame.ok()) return false;
  jclass containers = find(jni, containers_class);
  if (containers == nullptr) return false;  // no virtual threads (before JDK 21)
  jclass set = find(jni, "java/util/Set");
  jclass iterator = find(jni, "java/util/Iterator");
  jclass reference = find(jni, "java/lang/ref/Reference");
  jclass thread = find(jni, "java/lang/Thread");
  if (set == nullptr || iterator == nullptr || reference == nullptr || thread == nullptr) return false;
  set_size_ = jni->GetMethodID(set, "size", "()I");
  set_to_array_ = jni->GetMethodID(set, "toArray", "()[Ljava/lang/Object;");
  set_iterator_ = jni->GetMethodID(set, "iterator", "()Ljava/util/Iterator;");
  iterator_next_ = jni->GetMethodID(iterator, "next", "()Ljava/lang/Object;");
  reference_get_ = jni->GetMethodID(reference, "get", "()Ljava/lang/Object;");
  thread_is_virtual_ = jni->GetMethodID(thread, "isVirtual", "()Z");
  if (!jni_ok(jni, "Set, Iterator, Reference and Thread methods")) return false;
  if (!resolve_root(jni, containers) || !resolve_registered(jni)) return false;
  jobject registry = static_object(jni, containers, "CONTAINER_REGISTRY", "Ljava/util/Set;");
  if (registry == nullptr) return layout_differs("ThreadContainers.CONTAINER_REGISTRY");
  registry_ = jni->NewGlobalRef(registry);
  return registry_ != nullptr;
}

// The root container is one of two classes, by -Djdk.trackAllThreads.
bool VirtualThreadCensus::resolve_root(JNIEnv* jni, jclass containers) {
  jobject root = static_object(jni, containers, "ROOT_CONTAINER", "Ljdk/internal/vm/ThreadContainers$RootContainer;");
  if (root == nullptr) return layout_differs("ThreadContainers.ROOT_CONTAINER");
  jclass tracking = find(jni, "jdk/internal/vm/ThreadContainers$RootContainer$TrackingRootContainer");
  if (tracking != nullptr && jni->IsInstanceOf(root, tracking)) {
    jobject s = static_object(jni, tracking, "VTHREADS", "Ljava/util/Set;");
    if (s == nullptr) return layout_differs("TrackingRootContainer.VTHREADS");
    root_set_ = jni->NewGlobalRef(s);
    return root_set_ != nullptr;
  }
  jclass counting = find(jni, "jdk/internal/vm/ThreadContainers$RootContainer$CountingRootContainer");
  jclass adder = find(jni, "java/util/concurrent/atomic/LongAdder");
  jobject c = static_object(jni, counting, "VTHREAD_COUNT", "Ljava/util/concurrent/atomic/LongAdder;");
  if (c == nullptr || adder == nullptr) return layout_differs("the root container");
  counter_sum_ = jni->GetMethodID(adder, "sum", "()J");
  if (!jni_ok(jni, "LongAdder.sum")) return false;
  root_counter_ = jni->NewGlobalRef(c);
  return root_counter_ != nullptr;
}

// The two kinds of registered container that hold virtual threads.
bool VirtualThreadCensus::resolve_registered(JNIEnv* jni) {
  jclass shared = find(jni, "jdk/internal/vm/SharedThreadContainer");
  jclass executor = find(jni, "java/util/concurrent/ThreadPerTaskExecutor");
  jfieldID virtual_threads = shared ? jni->GetFieldID(shared, "virtualThreads", "Ljava/util/Set;") : nullptr;
  jfieldID threads = executor ? jni->GetFieldID(executor, "threads", "Ljava/util/Set;") : nullptr;
  if (virtual_threads == nullptr || threads == nullptr) {
    jni->ExceptionClear();
    return layout_differs("SharedThreadContainer.virtualThreads, ThreadPerTaskExecutor.threads");
  }
  shared_virtual_threads_ = virtual_threads;
  executor_threads_ = threads;
  shared_class_ = static_cast<jclass>(jni->NewGlobalRef(shared));
  executor_class_ = static_cast<jclass>(jni->NewGlobalRef(executor));
  return shared_class_ != nullptr && executor_class_ != nullptr;
}

std::optional<uint64_t> VirtualThreadCensus::live(JNIEnv* jni) const {
  if (!available()) return std::nullopt;
  LocalFrame frame(jni, 16);
  if (!frame.ok()) return std::nullopt;
  const jlong root = root_set_ != nullptr ? jni->CallIntMethod(root_set_, set_size_)
                                          : jni->CallLongMethod(root_counter_, counter_sum_);
  if (!jni_ok(jni, "the root container's virtual threads")) return std::nullopt;
  auto others = registered(jni);
  if (!others) return std::nullopt;
  return static_cast<uint64_t>(root > 0 ? root : 0) + *others;
}

// The registered containers, weakly held by the JDK.
std::optional<uint64_t> VirtualThreadCensus::registered(JNIEnv* jni) const {
  auto refs = static_cast<jobjectArray>(jni->CallObjectMethod(registry_, set_to_array_));
  if (!jni_ok(jni, "the registered thread containers") || refs == nullptr) return std::nullopt;
  uint64_t n = 0;
  const jsize count = jni->GetArrayLength(refs);
  for (jsize i = 0; i < count; ++i) {
    LocalFrame each(jni, 8);
    jobject ref = jni->GetObjectArrayElement(refs, i);
    jobject container = ref != nullptr ? jni->CallObjectMethod(ref, reference_get_) : nullptr;
    if (!jni_ok(jni, "a registered thread container")) return std::nullopt;
    if (container == nullptr) continue;  // collected
    auto in = virtual_in(jni, container);
    if (!in) return std::nullopt;
    n += *in;
  }
  return n;
}

std::optional<uint64_t> VirtualThreadCensus::virtual_in(JNIEnv* jni, jobject container) const {
  const bool shared = jni->IsInstanceOf(container, shared_class_);
  if (!shared && !jni->IsInstanceOf(container, executor_class_)) return 0;
  jobject set = jni->GetObjectField(container, shared ? shared_virtual_threads_ : executor_threads_);
  if (set == nullptr) return 0;
  const jint size = jni->CallIntMethod(set, set_size_);
  if (!jni_ok(jni, "a thread container's threads")) return std::nullopt;
  if (size <= 0) return 0;
  if (shared) return static_cast<uint64_t>(size);
  // An executor's threads all come from its one factory: virtual or not,
  // the first one tells. (Emptied meanwhile: next() throws; nothing to count.)
  jobject it = jni->CallObjectMethod(set, set_iterator_);
  jobject first = it != nullptr ? jni->CallObjectMethod(it, iterator_next_) : nullptr;
  if (jni->ExceptionCheck() || first == nullptr) {
    jni->ExceptionClear();
    return 0;
  }
  const bool is_virtual = jni->CallBooleanMethod(first, thread_is_virtual_);
  if (!jni_ok(jni, "Thread.isVirtual")) return std::nullopt;
  return is_virtual ? static_cast<uint64_t>(size) : 0;
}

}  // namespace jvmsight
