#include "collectors/contention/tagged_lock_classes.h"

#include "collectors/contention/monitor_contention_recorder.h"
#include "common/jvm_calls.h"

namespace jvmsight {

std::map<int32_t, std::string> tagged_lock_classes(jvmtiEnv* jvmti, JNIEnv* jni, const std::vector<int32_t>& hashes) {
  std::map<int32_t, std::string> out;
  if (hashes.empty()) return out;
  LocalFrame frame(jni, 16);
  std::vector<jlong> tags;
  for (int32_t h : hashes) tags.push_back(lock_tag(h));
  jint count = 0;
  JvmtiArray<jobject> objects(jvmti);
  JvmtiArray<jlong> found_tags(jvmti);
  if (!jvmti_ok(jvmti,
                jvmti->GetObjectsWithTags(static_cast<jint>(tags.size()), tags.data(), &count, objects.out(),
                                          found_tags.out()),
                "GetObjectsWithTags"))
    return out;
  for (jint i = 0; i < count; ++i) {
    jclass cls = jni->GetObjectClass(objects[i]);
    char* sig = nullptr;
    if (cls != nullptr && jvmti->GetClassSignature(cls, &sig, nullptr) == JVMTI_ERROR_NONE) {
      out[hash_of_lock_tag(found_tags[i])] = java_class_name(sig);
      jvmti->Deallocate(reinterpret_cast<unsigned char*>(sig));
    }
    if (cls) jni->DeleteLocalRef(cls);
    jni->DeleteLocalRef(objects[i]);
  }
  return out;
}

}  // namespace jvmsight
