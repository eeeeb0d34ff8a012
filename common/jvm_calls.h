#pragma once
// Checked JVM TI / JNI calls and RAII for what they hand out. Agent thread
// and lifecycle code only: these log, and logging allocates.
#include <jni.h>
#include <jvmti.h>

#include <cstddef>
#include <string>
#include <vector>

namespace jvmsight {

// True when err is JVMTI_ERROR_NONE; otherwise logs "<what>: <error name>"
// at warn level (debug for WRONG_PHASE, which is normal while the VM exits).
bool jvmti_ok(jvmtiEnv* jvmti, jvmtiError err, const char* what);

// True until the VM's exit reaches VMDeath: a lookup that fails after that
// says nothing about the JDK (the agent thread may still be setting up).
bool vm_live(jvmtiEnv* jvmti);

// JVM TI's major version: the JDK's feature number from JDK 9 on (21 on
// JDK 21), 1 on JDK 8; 0 if the JVM does not say.
int jvmti_major(jvmtiEnv* jvmti);

// True when no Java exception is pending; otherwise describes it at warn
// level, clears it, and returns false.
bool jni_ok(JNIEnv* jni, const char* what);

// A java.lang.String's UTF-8 text ("" for null).
std::string java_string(JNIEnv* jni, jobject s);

// System.getProperty(name) through JNI ("" when unset or on failure).
// java.runtime.* are set by the class library, so JVM TI's
// GetSystemProperty does not have them.
std::string java_system_property(JNIEnv* jni, const char* name);

// "Ljava/lang/Object;" -> "java.lang.Object" (a JVM TI class signature).
std::string java_class_name(const char* signature);

// The elements of a java.util.List of MXBeans, each with its getName():
// new global references, elements that fail left out. Agent thread only.
struct NamedBean {
  jobject bean;  // global ref
  std::string name;
};
std::vector<NamedBean> named_beans(JNIEnv* jni, jobject list, jmethodID get_name);

// Memory JVM TI allocated for us (arrays from GetAllThreads, names...).
template <class T>
class JvmtiArray {
 public:
  explicit JvmtiArray(jvmtiEnv* jvmti) : jvmti_(jvmti) {}
  ~JvmtiArray() {
    if (ptr_ != nullptr) jvmti_->Deallocate(reinterpret_cast<unsigned char*>(ptr_));
  }
  JvmtiArray(const JvmtiArray&) = delete;
  JvmtiArray& operator=(const JvmtiArray&) = delete;
  T** out() { return &ptr_; }
  T* get() const { return ptr_; }
  T& operator[](size_t i) const { return ptr_[i]; }

 private:
  jvmtiEnv* jvmti_;
  T* ptr_ = nullptr;
};

// Frees every local reference made inside its scope (GetAllThreads alone
// makes one per thread).
class LocalFrame {
 public:
  LocalFrame(JNIEnv* jni, jint capacity) : jni_(jni), pushed_(jni->PushLocalFrame(capacity) == 0) {}
  ~LocalFrame() {
    if (pushed_)
      jni_->PopLocalFrame(nullptr);
    else
      jni_->ExceptionClear();  // PushLocalFrame failed with OutOfMemoryError
  }
  LocalFrame(const LocalFrame&) = delete;
  LocalFrame& operator=(const LocalFrame&) = delete;
  bool ok() const { return pushed_; }

 private:
  JNIEnv* jni_;
  bool pushed_;
};

}  // namespace jvmsight
