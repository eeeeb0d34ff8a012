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

bool vm_live(jvmtiEnv* jvmti) {
  jvmtiPhase phase = JVMTI_PHASE_DEAD;
  return jvmti->GetPhase(&phase) == JVMTI_ERROR_NONE && phase == JVMTI_PHASE_LIVE;
}

int jvmti_major(jvmtiEnv* jvmti) {
  jint version = 0;
  if (jvmti->GetVersionNumber(&version) != JVMTI_ERROR_NONE) return 0;
  return (version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR;
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

std::string java_class_name(const char* signature) {
  std::string s(signature ? signature : "?");
  if (s.size() > 2 && s.front() == 'L' && s.back() == ';') s = s.substr(1, s.size() - 2);
  for (char& c : s)
    if (c == '/') c = '.';
  return s;
}

std::string java_string(JNIEnv* jni, jobject s) {
  if (s == nullptr) return "";
  const char* chars = jni->GetStringUTFChars(static_cast<jstring>(s), nullptr);
  std::string out = chars ? chars : "";
  if (chars) jni->ReleaseStringUTFChars(static_cast<jstring>(s), chars);
  return out;
}

std::string java_system_property(JNIEnv* jni, const char* name) {
  if (jni->PushLocalFrame(8) != 0) {
    jni->ExceptionClear();
    return "";
  }
  std::string out;
  jclass system = jni->FindClass("java/lang/System");
  jmethodID get =
      system ? jni->GetStaticMethodID(system, "getProperty", "(Ljava/lang/String;)Ljava/lang/String;") : nullptr;
  jstring key = get && jni_ok(jni, "System.getProperty") ? jni->NewStringUTF(name) : nullptr;
  jobject value = key ? jni->CallStaticObjectMethod(system, get, key) : nullptr;
  if (jni_ok(jni, name)) out = java_string(jni, value);
  jni->PopLocalFrame(nullptr);
  return out;
}

std::vector<NamedBean> named_beans(JNIEnv* jni, jobject list, jmethodID get_name) {
  std::vector<NamedBean> out;
  jclass list_class = jni->FindClass("java/util/List");
  jmethodID size = list_class ? jni->GetMethodID(list_class, "size", "()I") : nullptr;
  jmethodID get = list_class ? jni->GetMethodID(list_class, "get", "(I)Ljava/lang/Object;") : nullptr;
  if (!jni_ok(jni, "java.util.List methods") || size == nullptr || get == nullptr) return out;
  jint n = jni->CallIntMethod(list, size);
  for (jint i = 0; i < n && jni_ok(jni, "List.size()"); ++i) {
    jobject bean = jni->CallObjectMethod(list, get, i);
    auto name = bean ? static_cast<jstring>(jni->CallObjectMethod(bean, get_name)) : nullptr;
    if (jni_ok(jni, "MXBean getName()") && bean != nullptr) {
      const char* chars = name ? jni->GetStringUTFChars(name, nullptr) : nullptr;
      out.push_back({jni->NewGlobalRef(bean), chars ? chars : ""});
      if (chars) jni->ReleaseStringUTFChars(name, chars);
    }
    jni->DeleteLocalRef(name);
    jni->DeleteLocalRef(bean);
  }
  jni->DeleteLocalRef(list_class);
  return out;
}

}  // namespace jvmsight
