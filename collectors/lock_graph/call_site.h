#pragma once
// Where a waiting thread asked for its lock: the first frame of its stack
// outside the lock's own code (java.util.concurrent.locks, Unsafe, the
// virtual-thread park path), resolved to class, method, source file and
// line. For a thread blocked entering a monitor that is the top frame, the
// synchronized block or method. GetStackTrace is a handshake with the one
// thread (a safepoint on JDK 8): taken once per new order, not per check.
// Agent thread only.
#include <jni.h>
#include <jvmti.h>

#include <optional>
#include <string>

#include "model/thread_record.h"

namespace jvmsight {

// Frames of the lock machinery between a caller and its park.
bool is_lock_machinery(const std::string& class_name);

class CallSites {
 public:
  static constexpr jint max_frames = 24;
  CallSites(jvmtiEnv* jvmti, JNIEnv* jni) : jvmti_(jvmti), jni_(jni) {}
  // nullopt: the thread ended, or no frame of its own among the top max_frames.
  std::optional<FrameRecord> of(jthread thread);

 private:
  FrameRecord describe(jmethodID method, jlocation location);
  int line_of(jmethodID method, jlocation location);
  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
};

}  // namespace jvmsight
