#include "collectors/lock_graph/java_lock_scan.h"

#include <algorithm>

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

// The compiled JvmsightLockScan and JvmsightUnsafe classes, embedded at build time.
extern const unsigned char lock_scan_class[];
extern const size_t lock_scan_class_size;
extern const unsigned char lock_unsafe_class[];
extern const size_t lock_unsafe_class_size;
extern const unsigned char parked_scan_class[];
extern const size_t parked_scan_class_size;

namespace {

// Defines a class in the bootstrap loader (null), which puts it in java.base
// next to AbstractOwnableSynchronizer, or finds it from an earlier load of
// the agent in this JVM; null if this JVM refuses it.
jclass define_boot_class(JNIEnv* jni, const char* name, const unsigned char* bytes, size_t size) {
  jclass cls = jni->DefineClass(name, nullptr, reinterpret_cast<const jbyte*>(bytes), static_cast<jsize>(size));
  if (cls != nullptr) return cls;
  jni->ExceptionClear();  // already defined by an earlier load of the agent
  cls = jni->FindClass(name);
  if (cls == nullptr) jni->ExceptionClear();
  return cls;
}

}  // namespace

JavaLockScan::JavaLockScan(jvmtiEnv* jvmti, JNIEnv* jni) : jvmti_(jvmti), jni_(jni) { ok_ = define(); }

void JavaLockScan::set_threads(jobjectArray threads, jsize count) {
  auto drop = [this](auto& ref) {
    if (ref) jni_->DeleteGlobalRef(ref);
    ref = nullptr;
  };
  drop(thread_array_);
  drop(indices_);
  drop(groups_);
  thread_ids_.clear();
  if (scan_class_ == nullptr || threads == nullptr) return;
  LocalFrame frame(jni_, 4);
  // Room for every index.
  jintArray indices = jni_->NewIntArray(count);
  jintArray groups = jni_->NewIntArray(count);
  if (!jni_ok(jni_, "int[] for JvmsightLockScan") || indices == nullptr || groups == nullptr) return;
  auto ids = static_cast<jlongArray>(jni_->CallStaticObjectMethod(scan_class_, ids_method_, threads));
  if (!jni_ok(jni_, "JvmsightLockScan.ids") || ids == nullptr) return;
  thread_ids_.resize(static_cast<size_t>(count));
  jni_->GetLongArrayRegion(ids, 0, count, thread_ids_.data());
  thread_array_ = static_cast<jobjectArray>(jni_->NewGlobalRef(threads));
  indices_ = static_cast<jintArray>(jni_->NewGlobalRef(indices));
  groups_ = static_cast<jintArray>(jni_->NewGlobalRef(groups));
}

bool JavaLockScan::gather(jobjectArray threads, jintArray out) {
  if (scan_class_ == nullptr || statuses_method_ == nullptr) return false;
  const jboolean read = jni_->CallStaticBooleanMethod(scan_class_, statuses_method_, threads, out);
  return jni_ok(jni_, "JvmsightLockScan.statuses") && read == JNI_TRUE;
}

bool JavaLockScan::define() {
  LocalFrame frame(jni_, 4);
  // JvmsightUnsafe first: JvmsightLockScan links against it, and the
  // bootstrap loader finds it only once defined.
  jclass cls =
      define_boot_class(jni_, "java/util/concurrent/locks/JvmsightUnsafe", lock_unsafe_class, lock_unsafe_class_size);
  if (cls != nullptr)
    cls = define_boot_class(jni_, "java/util/concurrent/locks/JvmsightLockScan", lock_scan_class, lock_scan_class_size);
  if (cls == nullptr) {
    // A JVM that refuses a class in java.base from the agent: not a warning.
    log::info("JvmsightLockScan could not be defined: threads are read through JNI, one call per thread");
    return false;
  }
  scan_method_ = jni_->GetStaticMethodID(cls, "scan", "([Ljava/lang/Thread;[I[I[Ljava/lang/Object;Z)I");
  ids_method_ = jni_->GetStaticMethodID(cls, "ids", "([Ljava/lang/Thread;)[J");
  if (!jni_ok(jni_, "JvmsightLockScan.scan") || scan_method_ == nullptr || ids_method_ == nullptr) return false;
  // Optional: a class left by an earlier agent build may lack it (the roster then reads through JNI).
  statuses_method_ = jni_->GetStaticMethodID(cls, "statuses", "([Ljava/lang/Thread;[I)Z");
  if (!jni_ok(jni_, "JvmsightLockScan.statuses")) statuses_method_ = nullptr;
  virtual_method_ = jni_->GetStaticMethodID(cls, "virtualCandidates", "(I)[Ljava/lang/Thread;");
  if (!jni_ok(jni_, "JvmsightLockScan.virtualCandidates")) virtual_method_ = nullptr;
  virtual_by_id_ = jni_->GetStaticMethodID(cls, "virtualThread", "(J)Ljava/lang/Thread;");
  if (!jni_ok(jni_, "JvmsightLockScan.virtualThread")) virtual_by_id_ = nullptr;
  jclass object = jni_->FindClass("java/lang/Object");
  jobjectArray locks = object ? jni_->NewObjectArray(max_lock_slots, object, nullptr) : nullptr;
  if (!jni_ok(jni_, "Object[] for JvmsightLockScan") || locks == nullptr) return false;
  locks_ = static_cast<jobjectArray>(jni_->NewGlobalRef(locks));
  scan_class_ = static_cast<jclass>(jni_->NewGlobalRef(cls));
  if (scan_class_ == nullptr || locks_ == nullptr) return false;
  // A class this JVM defined but cannot run (a JDK whose Unsafe or Thread it
  // does not know) fails here, and the threads are read through JNI instead.
  if (!warm_up()) return false;
  define_parked_scan();
  return true;
}

// After JvmsightLockScan, whose scan it calls. Without it only the block
// profile is missing (one info line).
void JavaLockScan::define_parked_scan() {
  LocalFrame frame(jni_, 4);
  jclass cls = define_boot_class(jni_, "java/util/concurrent/locks/JvmsightParkedScan", parked_scan_class,
                                 parked_scan_class_size);
  jmethodID available = cls ? jni_->GetStaticMethodID(cls, "available", "()Z") : nullptr;
  const bool ok = jni_ok(jni_, "JvmsightParkedScan.available") && available != nullptr &&
                  jni_->CallStaticBooleanMethod(cls, available) == JNI_TRUE && jni_ok(jni_, "JvmsightParkedScan");
  if (!ok) {
    log::info("JvmsightParkedScan cannot read this JDK's synchronizer queues: /debug/pprof/block is not served");
    return;
  }
  parked_virtual_method_ = jni_->GetStaticMethodID(cls, "parkedVirtual", "([Ljava/lang/Thread;[J[I[I)I");
  stacks_method_ = jni_->GetStaticMethodID(cls, "stacks", "([Ljava/lang/Thread;[II)[Ljava/lang/String;");
  jmethodID parked = jni_->GetStaticMethodID(cls, "parked", "([Ljava/lang/Thread;[I[I[Ljava/lang/Object;[J[I[I)I");
  if (!jni_ok(jni_, "JvmsightParkedScan methods") || parked == nullptr || parked_virtual_method_ == nullptr ||
      stacks_method_ == nullptr)
    return;
  // JvmsightParkedScan.warmUp says why; about 10 ms of agent-thread CPU, once.
  jmethodID warm_up = jni_->GetStaticMethodID(cls, "warmUp", "(I)I");
  if (!jni_ok(jni_, "JvmsightParkedScan.warmUp") || warm_up == nullptr) return;
  jni_->CallStaticIntMethod(cls, warm_up, 2000);
  if (!jni_ok(jni_, "JvmsightParkedScan warm-up")) return;
  parked_class_ = static_cast<jclass>(jni_->NewGlobalRef(cls));
  if (parked_class_ != nullptr) parked_method_ = parked;
}

bool JavaLockScan::warm_up() {
  // JvmsightLockScan.warmUp says why and how; about 20 ms of agent-thread CPU, once.
  jmethodID warm_up = jni_->GetStaticMethodID(scan_class_, "warmUp", "(I)I");
  if (!jni_ok(jni_, "JvmsightLockScan.warmUp") || warm_up == nullptr) return false;
  jni_->CallStaticIntMethod(scan_class_, warm_up, 6000);
  return jni_ok(jni_, "JvmsightLockScan warm-up");
}

std::optional<JavaLockScan::Candidates> JavaLockScan::candidates(bool unowned) {
  if (scan_class_ == nullptr || thread_array_ == nullptr || indices_ == nullptr || groups_ == nullptr ||
      locks_ == nullptr)
    return std::nullopt;
  jint n = jni_->CallStaticIntMethod(scan_class_, scan_method_, thread_array_, indices_, groups_, locks_,
                                     static_cast<jboolean>(unowned));
  if (!jni_ok(jni_, "JvmsightLockScan.scan")) return std::nullopt;
  Candidates out;
  const auto count = static_cast<size_t>(n);
  out.index.resize(count);
  out.id.resize(count);
  out.group.resize(count);
  if (n > 0) {
    // Two copies for every candidate instead of a JNI call per field per thread.
    jni_->GetIntArrayRegion(indices_, 0, n, out.index.data());
    jni_->GetIntArrayRegion(groups_, 0, n, out.group.data());
    for (size_t k = 0; k < count; ++k) {
      const auto i = static_cast<size_t>(out.index[k]);
      out.id[k] = i < thread_ids_.size() ? thread_ids_[i] : 0;
    }
    jint slots = 0;
    for (jint g : out.group) slots = std::max(slots, g + 1);
    for (jint k = 0; k < slots; ++k) out.locks.push_back(jni_->GetObjectArrayElement(locks_, k));
  }
  if (!jni_ok(jni_, "JvmsightLockScan results")) return std::nullopt;
  return out;
}

std::vector<jthread> JavaLockScan::virtual_candidates(jint max) {
  std::vector<jthread> out;
  if (scan_class_ == nullptr || virtual_method_ == nullptr) return out;
  auto found = static_cast<jobjectArray>(jni_->CallStaticObjectMethod(scan_class_, virtual_method_, max));
  if (!jni_ok(jni_, "JvmsightLockScan.virtualCandidates") || found == nullptr) return out;
  jsize n = jni_->GetArrayLength(found);
  for (jsize i = 0; i < n; ++i) out.push_back(static_cast<jthread>(jni_->GetObjectArrayElement(found, i)));
  jni_->DeleteLocalRef(found);
  return out;
}

jthread JavaLockScan::virtual_thread(jlong id) {
  if (scan_class_ == nullptr || virtual_by_id_ == nullptr) return nullptr;
  auto t = static_cast<jthread>(jni_->CallStaticObjectMethod(scan_class_, virtual_by_id_, id));
  return jni_ok(jni_, "JvmsightLockScan.virtualThread") ? t : nullptr;
}

namespace {

template <class Array>
void replace_global(JNIEnv* jni, Array& global, Array local) {
  if (global != nullptr) jni->DeleteGlobalRef(global);
  global = local ? static_cast<Array>(jni->NewGlobalRef(local)) : nullptr;
}

}  // namespace

bool JavaLockScan::size_parked_arrays(jsize count) {
  if (count <= parked_capacity_ && parked_out_ != nullptr) return true;
  LocalFrame frame(jni_, 8);
  jclass object = jni_->FindClass("java/lang/Object");
  const jsize n = std::max<jsize>(count, 64);
  replace_global(jni_, parked_out_, jni_->NewIntArray(n));
  replace_global(jni_, parked_groups_, jni_->NewIntArray(n));
  replace_global(jni_, parked_ids_, jni_->NewLongArray(n));
  replace_global(jni_, parked_tokens_, jni_->NewIntArray(n));
  replace_global(jni_, parked_lock_ids_, jni_->NewIntArray(n));
  replace_global(jni_, parked_locks_, object ? jni_->NewObjectArray(max_lock_slots, object, nullptr) : nullptr);
  const bool ok = jni_ok(jni_, "arrays for JvmsightParkedScan") && parked_out_ && parked_groups_ && parked_ids_ &&
                  parked_tokens_ && parked_lock_ids_ && parked_locks_;
  parked_capacity_ = ok ? n : 0;
  return ok;
}

std::optional<ParkedThreads> JavaLockScan::parked(jobjectArray threads, jsize count) {
  if (parked_method_ == nullptr || threads == nullptr || !size_parked_arrays(count)) return std::nullopt;
  const jint n = jni_->CallStaticIntMethod(parked_class_, parked_method_, threads, parked_out_, parked_groups_,
                                           parked_locks_, parked_ids_, parked_tokens_, parked_lock_ids_);
  if (!jni_ok(jni_, "JvmsightParkedScan.parked") || n < 0 || n > count) return std::nullopt;
  return parked_results(n, true);
}

std::optional<ParkedThreads> JavaLockScan::parked_virtual(jint max) {
  if (parked_method_ == nullptr || !size_parked_arrays(max)) return std::nullopt;
  if (parked_virtual_ == nullptr || jni_->GetArrayLength(parked_virtual_) < max) {
    LocalFrame frame(jni_, 2);
    jclass thread_class = jni_->FindClass("java/lang/Thread");
    replace_global(jni_, parked_virtual_, thread_class ? jni_->NewObjectArray(max, thread_class, nullptr) : nullptr);
    if (!jni_ok(jni_, "Thread[] for JvmsightParkedScan") || parked_virtual_ == nullptr) return std::nullopt;
  }
  const jint n = jni_->CallStaticIntMethod(parked_class_, parked_virtual_method_, parked_virtual_, parked_ids_,
                                           parked_tokens_, parked_lock_ids_);
  if (!jni_ok(jni_, "JvmsightParkedScan.parkedVirtual") || n < -1 || n > max) return std::nullopt;
  std::optional<ParkedThreads> out = parked_results(std::max(n, 0), false);
  if (out) out->none_alive = n < 0;
  return out;
}

// The first n of what the pass wrote; platform: their indices too.
std::optional<ParkedThreads> JavaLockScan::parked_results(jint n, bool platform) {
  ParkedThreads out;
  const auto count = static_cast<size_t>(n);
  out.index.resize(count);
  out.id.resize(count);
  out.token.resize(count);
  out.lock.resize(count);
  if (n > 0) {
    if (platform) jni_->GetIntArrayRegion(parked_out_, 0, n, out.index.data());
    jni_->GetLongArrayRegion(parked_ids_, 0, n, out.id.data());
    jni_->GetIntArrayRegion(parked_tokens_, 0, n, out.token.data());
    jni_->GetIntArrayRegion(parked_lock_ids_, 0, n, out.lock.data());
  }
  // Virtual: indices into the pass's own list.
  for (size_t i = 0; !platform && i < count; ++i) out.index[i] = static_cast<jint>(i);
  if (!jni_ok(jni_, "JvmsightParkedScan results")) return std::nullopt;
  return out;
}

std::vector<std::string> JavaLockScan::virtual_stacks(const std::vector<jint>& index, jint depth) {
  std::vector<std::string> out(index.size());
  if (stacks_method_ == nullptr || parked_virtual_ == nullptr || index.empty()) return out;
  LocalFrame frame(jni_, 8);
  const auto n = static_cast<jsize>(index.size());
  jintArray which = jni_->NewIntArray(n);
  if (!jni_ok(jni_, "int[] for JvmsightParkedScan.stacks") || which == nullptr) return out;
  jni_->SetIntArrayRegion(which, 0, n, index.data());
  auto stacks = static_cast<jobjectArray>(
      jni_->CallStaticObjectMethod(parked_class_, stacks_method_, parked_virtual_, which, depth));
  if (!jni_ok(jni_, "JvmsightParkedScan.stacks") || stacks == nullptr) return out;
  for (jsize i = 0; i < n; ++i) {
    auto s = static_cast<jstring>(jni_->GetObjectArrayElement(stacks, i));
    const char* chars = s ? jni_->GetStringUTFChars(s, nullptr) : nullptr;
    if (chars != nullptr) {
      out[static_cast<size_t>(i)] = chars;
      jni_->ReleaseStringUTFChars(s, chars);
    }
    jni_->ExceptionClear();  // OutOfMemoryError: that stack stays ""
    if (s) jni_->DeleteLocalRef(s);
  }
  return out;
}

}  // namespace jvmsight
