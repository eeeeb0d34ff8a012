#include "collectors/threads/jvmti_thread_source.h"

namespace jvmsight {

bool JvmtiThreadSource::count_states(ThreadStateCounts& out) {
  out.native_and_suspended_known = native_states_;
  out.daemon_known = roster_.layout().daemon != nullptr;
  StatusTally tally(out);
  if (pools_ != nullptr) pools_->begin_walk();
  const bool walked = roster_.for_each(jni_, jvmti_, [&](jthread thread, jint status, bool daemon, uint32_t mark) {
    if (pools_ != nullptr) pools_->count(mark, status);
    if (native_states_ && (status & JVMTI_THREAD_STATE_RUNNABLE)) {
      // threadStatus lacks the in-native and suspended bits: ask JVM TI, for these few only.
      jint full = 0;
      if (jvmti_->GetThreadState(thread, &full) == JVMTI_ERROR_NONE && (full & JVMTI_THREAD_STATE_ALIVE))
        status |= full & (JVMTI_THREAD_STATE_IN_NATIVE | JVMTI_THREAD_STATE_SUSPENDED);
    }
    tally.add(status, daemon);
  });
  tally.flush();
  if (walked && pools_ != nullptr) pools_->end_walk();
  return walked;
}

}  // namespace jvmsight
