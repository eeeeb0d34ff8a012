#include "collectors/contention/tagged_lock_classes.h"

#include "collectors/contention/monitor_contention_recorder.h"
#include "common/jvm_calls.h"

namespace jvmsight {

std::map<int32_t, std::string> TaggedLockClasses::classes_of(const std::vector<int32_t>& hashes) {
  std::map<int32_t, std::string> out;
  if (hashes.empty()) return out;
  LocalFrame frame(jni_, 16);
  std::vector<jlong> tags;
  for (int32_t h : hashes) tags.push_back(lock_tag(h));
  jint count = 0;
  JvmtiArray<jobject> objects(jvmti_);
  JvmtiArray<jlong> found_tags(jvmti_);
  if (!jvmti_ok(jvmti_,
                jvmti_->GetObjectsWithTags(static_cast<jint>(tags.size()), tags.data(), &count, objects.out(),
                                           found_tags.out()),
                "GetObjectsWithTags"))
    return out;
  for (jint i = 0; i < count; ++i) {
    jclass cls = jni_->GetObjectClass(objects[i]);
    char* sig = nullptr;
    if (cls != nullptr && jvmti_->GetClassSignature(cls, &sig, nullptr) == JVMTI_ERROR_NONE) {
      out[hash_of_lock_tag(found_tags[i])] = java_class_name(sig);
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
    }
    if (cls) jni_->DeleteLocalRef(cls);
    jni_->DeleteLocalRef(objects[i]);
  }
  return out;
}

}  // namespace jvmsight
