#include "common/jvm_calls.h"

#include "common/log.h"

namespace jvmsight {

bool jvmti_ok(jvmtiEnv* jvmti, jvmtiError err, const char* what) {
  if (err == JVMTI_ERROR_NONE) return true;
  char* name = nullptr;
  const char* shown = "unknown error";
  if (jvmti->GetErrorName(err, &name) == JVMTI_ERROR_NONE && name != nullptr) shown = name;
  log::at(err == JVMTI_ERROR_WRONG_PHASE ? log::Level::debug : log::Level::warn, what, " failed: ", shown, " (",
          static_cast<int>(err), ")");
  if (name != nullptr) jvmti->Deallocate(reinterpret_cast<unsigned char*>(name));
  return false;
}

bool jni_ok(JNIEnv* jni, const char* what) {
  if (!jni->ExceptionCheck()) return true;
  jthrowable ex = jni->ExceptionOccurred();
  jni->ExceptionClear();
  const char* detail = "exception";
  jstring text = nullptr;
  if (ex != nullptr) {
    jclass cls = jni->FindClass("java/lang/Object");
    jmethodID to_string = cls ? jni->GetMethodID(cls, "toString", "()Ljava/lang/String;") : nullptr;
    if (to_string) text = static_cast<jstring>(jni->CallObjectMethod(ex, to_string));
    jni->ExceptionClear();
  }
  const char* chars = text ? jni->GetStringUTFChars(text, nullptr) : nullptr;
  log::warn(what, " failed: ", chars ? chars : detail);
  if (chars) jni->ReleaseStringUTFChars(text, chars);
  jni->ExceptionClear();
  return false;
}

}  // namespace jvmsight
