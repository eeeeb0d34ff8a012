#pragma once
#include <jni.h>
#include <jvmti.h>

#include "collectors/thread_mx_bean.h"
#include "collectors/thread_source.h"

namespace jvmsight {

// Thread states from GetAllThreads + GetThreadState: no safepoint and no
// per-thread allocation, unlike ThreadMXBean.getThreadInfo which dumps every
// thread in a VM operation. Agent thread only.
class JvmtiThreadSource : public ThreadSource {
 public:
  JvmtiThreadSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadMxBean& mx) : jvmti_(jvmti), jni_(jni), mx_(mx) {}
  bool count_states(ThreadStateCounts& out) override;
  std::optional<ThreadCounts> counts() override { return mx_.counts(jni_); }

 private:
  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadMxBean& mx_;
};

}  // namespace jvmsight
