#include "collectors/lock_graph/call_site.h"

#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

bool is_lock_machinery(const std::string& c) {
  // LockSupport, AQS and the locks; Unsafe.park (jdk.internal.misc on 9+,
  // sun.misc on 8); how a virtual thread parks (21+).
  return starts_with(c, "java.util.concurrent.locks.") || c == "jdk.internal.misc.Unsafe" || c == "sun.misc.Unsafe" ||
         c == "java.lang.VirtualThread" || c == "jdk.internal.misc.VirtualThreads" || c == "java.lang.System$2" ||
         starts_with(c, "jdk.internal.vm.Continuation");
}

std::optional<FrameRecord> CallSites::of(jthread thread) {
  jvmtiFrameInfo frames[max_frames];
  jint count = 0;
  if (jvmti_->GetStackTrace(thread, 0, max_frames, frames, &count) != JVMTI_ERROR_NONE) return std::nullopt;
  for (jint i = 0; i < count; ++i) {
    FrameRecord f = describe(frames[i].method, frames[i].location);
    if (!is_lock_machinery(f.class_name)) return f;
  }
  return std::nullopt;
}

FrameRecord CallSites::describe(jmethodID method, jlocation location) {
  FrameRecord f;
  jclass cls = nullptr;
  if (jvmti_->GetMethodDeclaringClass(method, &cls) == JVMTI_ERROR_NONE) {
    char* sig = nullptr;
    if (jvmti_->GetClassSignature(cls, &sig, nullptr) == JVMTI_ERROR_NONE) {
      f.class_name = java_class_name(sig);
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(sig));
    }
    char* file = nullptr;
    if (jvmti_->GetSourceFileName(cls, &file) == JVMTI_ERROR_NONE) {
      f.file = file;
      jvmti_->Deallocate(reinterpret_cast<unsigned char*>(file));
    }
    jni_->DeleteLocalRef(cls);
  }
  char* name = nullptr;
  if (jvmti_->GetMethodName(method, &name, nullptr, nullptr) == JVMTI_ERROR_NONE) {
    f.method = name;
    jvmti_->Deallocate(reinterpret_cast<unsigned char*>(name));
  }
  jboolean native = JNI_FALSE;
  if (jvmti_->IsMethodNative(method, &native) == JVMTI_ERROR_NONE) f.native = native == JNI_TRUE;
  f.line = f.native ? -1 : line_of(method, location);
  return f;
}

// The line of the last entry at or before the location (the table is in
// no particular order).
int CallSites::line_of(jmethodID method, jlocation location) {
  jint n = 0;
  JvmtiArray<jvmtiLineNumberEntry> table(jvmti_);
  if (jvmti_->GetLineNumberTable(method, &n, table.out()) != JVMTI_ERROR_NONE) return -1;
  int line = -1;
  jlocation best = -1;
  for (jint i = 0; i < n; ++i) {
    if (table[i].start_location <= location && table[i].start_location > best) {
      best = table[i].start_location;
      line = table[i].line_number;
    }
  }
  return line;
}

}  // namespace jvmsight
