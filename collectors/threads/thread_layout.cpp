#include "collectors/threads/thread_layout.h"

#include "common/jvm_calls.h"

namespace jvmsight {

bool ThreadLayout::resolve(JNIEnv* jni) {
  jclass thread = jni->FindClass("java/lang/Thread");
  if (!jni_ok(jni, "FindClass(java.lang.Thread)") || thread == nullptr) return false;
  tid = jni->GetFieldID(thread, "tid", "J");
  if (!jni_ok(jni, "Thread.tid")) return false;
  park_blocker = jni->GetFieldID(thread, "parkBlocker", "Ljava/lang/Object;");
  if (!jni_ok(jni, "Thread.parkBlocker")) return false;
  // JDK 19 moved threadStatus into Thread.FieldHolder.
  holder = jni->GetFieldID(thread, "holder", "Ljava/lang/Thread$FieldHolder;");
  if (holder != nullptr) {
    jclass fh = jni->FindClass("java/lang/Thread$FieldHolder");
    if (fh != nullptr) status = jni->GetFieldID(fh, "threadStatus", "I");
    jni->DeleteLocalRef(fh);
  } else {
    jni->ExceptionClear();  // NoSuchFieldError: the JDK 17 layout
    status = jni->GetFieldID(thread, "threadStatus", "I");
  }
  jni->DeleteLocalRef(thread);
  if (!jni_ok(jni, "Thread.threadStatus") || status == nullptr) {
    status = nullptr;
    return false;
  }
  return true;
}

jobject ThreadLayout::status_holder(JNIEnv* jni, jobject thread) const {
  return holder == nullptr ? thread : jni->GetObjectField(thread, holder);
}

}  // namespace jvmsight
