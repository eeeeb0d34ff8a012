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
  jclass status_class = thread;
  if (holder != nullptr) {
    status_class = jni->FindClass("java/lang/Thread$FieldHolder");
    if (status_class != nullptr) status = jni->GetFieldID(status_class, "threadStatus", "I");
  } else {
    jni->ExceptionClear();  // NoSuchFieldError: the JDK 17 layout
    status = jni->GetFieldID(thread, "threadStatus", "I");
  }
  // The daemon flag sits beside threadStatus in both layouts. Optional:
  // without it only the daemon split of the state counts is missing.
  if (status != nullptr && status_class != nullptr) {
    daemon = jni->GetFieldID(status_class, "daemon", "Z");
    if (daemon == nullptr) jni->ExceptionClear();
  }
  if (status_class != thread) jni->DeleteLocalRef(status_class);
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
