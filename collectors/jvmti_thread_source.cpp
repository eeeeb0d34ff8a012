#include "collectors/jvmti_thread_source.h"

#include "collectors/jvm_calls.h"

namespace jvmsight {

bool JvmtiThreadSource::count_states(ThreadStateCounts& out) {
  // GetAllThreads makes a local reference per thread: the frame frees them all at once.
  LocalFrame frame(jni_, 16);
  if (!frame.ok()) return false;
  jint count = 0;
  JvmtiArray<jthread> threads(jvmti_);
  if (!jvmti_ok(jvmti_, jvmti_->GetAllThreads(&count, threads.out()), "GetAllThreads")) return false;
  // GetAllThreads lists JVM TI agent threads, ThreadMXBean does not: leave
  // ourselves out so the counts agree.
  jthread self = nullptr;
  if (!jvmti_ok(jvmti_, jvmti_->GetCurrentThread(&self), "GetCurrentThread")) return false;
  for (jint i = 0; i < count; ++i) {
    if (self != nullptr && jni_->IsSameObject(threads[i], self)) {
      self = nullptr;
      continue;
    }
    jint state = 0;
    // A thread that ended since GetAllThreads reports TERMINATED, as Thread.getState() would.
    if (jvmti_->GetThreadState(threads[i], &state) == JVMTI_ERROR_NONE) out.add(state);
  }
  return true;
}

}  // namespace jvmsight
