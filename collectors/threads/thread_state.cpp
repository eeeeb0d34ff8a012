#include "collectors/threads/thread_state.h"

namespace jvmsight {

std::string_view name_of(JavaThreadState s) {
  static constexpr std::string_view names[] = {"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"};
  return names[static_cast<size_t>(s)];
}

std::string_view name_of(ThreadSubState s) {
  static constexpr std::string_view names[] = {"parked", "sleeping", "object_wait", "native", "suspended"};
  return names[static_cast<size_t>(s)];
}

JavaThreadState java_state_of(jint st) {
  switch (st & JVMTI_JAVA_LANG_THREAD_STATE_MASK) {
    case JVMTI_JAVA_LANG_THREAD_STATE_TERMINATED:
      return JavaThreadState::TERMINATED;
    case JVMTI_JAVA_LANG_THREAD_STATE_RUNNABLE:
      return JavaThreadState::RUNNABLE;
    case JVMTI_JAVA_LANG_THREAD_STATE_BLOCKED:
      return JavaThreadState::BLOCKED;
    case JVMTI_JAVA_LANG_THREAD_STATE_WAITING:
      return JavaThreadState::WAITING;
    case JVMTI_JAVA_LANG_THREAD_STATE_TIMED_WAITING:
      return JavaThreadState::TIMED_WAITING;
    case JVMTI_JAVA_LANG_THREAD_STATE_NEW:
      return JavaThreadState::NEW;
    default:
      // Not a combination the spec defines; an alive thread that is neither
      // blocked nor waiting is running as far as Thread.getState() goes.
      if (st & JVMTI_THREAD_STATE_TERMINATED) return JavaThreadState::TERMINATED;
      if (!(st & JVMTI_THREAD_STATE_ALIVE)) return JavaThreadState::NEW;
      if (st & JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER) return JavaThreadState::BLOCKED;
      if (st & JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT) return JavaThreadState::TIMED_WAITING;
      if (st & JVMTI_THREAD_STATE_WAITING) return JavaThreadState::WAITING;
      return JavaThreadState::RUNNABLE;
  }
}

namespace {

// The JVM TI bit of each ThreadSubState, in its order.
constexpr jint sub_state_bits[thread_sub_state_count] = {JVMTI_THREAD_STATE_PARKED, JVMTI_THREAD_STATE_SLEEPING,
                                                         JVMTI_THREAD_STATE_IN_OBJECT_WAIT,
                                                         JVMTI_THREAD_STATE_IN_NATIVE, JVMTI_THREAD_STATE_SUSPENDED};

}  // namespace

bool has_sub_state(jint st, ThreadSubState s) { return (st & sub_state_bits[static_cast<size_t>(s)]) != 0; }

void ThreadStateCounts::add(jint st, bool daemon, uint64_t threads) {
  const auto state = static_cast<size_t>(java_state_of(st));
  by_state[state] += threads;
  daemon_by_state[state] += daemon ? threads : 0;
  for (size_t i = 0; i < thread_sub_state_count; ++i)
    by_sub_state[i] += has_sub_state(st, static_cast<ThreadSubState>(i)) ? threads : 0;
}

}  // namespace jvmsight
