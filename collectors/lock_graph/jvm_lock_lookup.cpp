#include "collectors/lock_graph/jvm_lock_lookup.h"

#include "common/jvm_calls.h"

namespace jvmsight {

bool JvmLockLookup::resolve() {
  LocalFrame frame(jni_, 8);
  jclass aos = jni_->FindClass("java/util/concurrent/locks/AbstractOwnableSynchronizer");
  if (!jni_ok(jni_, "FindClass(AbstractOwnableSynchronizer)") || aos == nullptr) return false;
  exclusive_owner_ = jni_->GetFieldID(aos, "exclusiveOwnerThread", "Ljava/lang/Thread;");
  if (!jni_ok(jni_, "AbstractOwnableSynchronizer.exclusiveOwnerThread")) return false;
  aos_ = static_cast<jclass>(jni_->NewGlobalRef(aos));
  return aos_ != nullptr;
}

ThreadKey JvmLockLookup::key_of(jthread t) { return roster_.layout().id(jni_, t); }

jobject JvmLockLookup::ownable_blocker(jthread t, jthread& owner) {
  owner = nullptr;
  jobject blocker = jni_->GetObjectField(t, roster_.layout().park_blocker);
  if (blocker == nullptr) return nullptr;
  if (!jni_->IsInstanceOf(blocker, aos_)) {
    jni_->DeleteLocalRef(blocker);  // a Condition, a latch's waiters...: not an ownable lock
    return nullptr;
  }
  owner = owner_of(blocker);
  return blocker;
}

jthread JvmLockLookup::owner_of(jobject synchronizer) {
  return static_cast<jthread>(jni_->GetObjectField(synchronizer, exclusive_owner_));
}

std::string JvmLockLookup::thread_name(jthread t) {
  jvmtiThreadInfo info{};
  if (jvmti_->GetThreadInfo(t, &info) != JVMTI_ERROR_NONE) return "?";
  std::string name = info.name ? info.name : "";
  if (info.name) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(info.name));
  if (info.thread_group) jni_->DeleteLocalRef(info.thread_group);
  if (info.context_class_loader) jni_->DeleteLocalRef(info.context_class_loader);
  return name;
}

std::string JvmLockLookup::class_name_of(jobject o) {
  jclass cls = jni_->GetObjectClass(o);
  for (const auto& [known, name] : class_names_) {
    if (jni_->IsSameObject(known, cls)) {
      jni_->DeleteLocalRef(cls);
      return name;
    }
  }
  char* sig = nullptr;
  std::string name = "?";
  if (jvmti_->GetClassSignature(cls, &sig, nullptr) == JVMTI_ERROR_NONE) {
    name = java_class_name(sig);
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
  }
  if (class_names_.size() < max_cached_classes) {
    if (jclass global = static_cast<jclass>(jni_->NewGlobalRef(cls))) class_names_.emplace_back(global, name);
  }
  jni_->DeleteLocalRef(cls);
  return name;
}

int32_t JvmLockLookup::hash_of(jobject o) {
  jint hash = 0;
  jvmti_->GetObjectHashCode(o, &hash);
  return hash;
}

}  // namespace jvmsight
