#pragma once
// JVM TI thread-state bits (GetThreadState) mapped to java.lang.Thread.State
// and to the finer sub-states only JVM TI reports.
#include <jvmti.h>

#include <array>
#include <cstdint>
#include <string_view>

namespace jvmsight {

enum class JavaThreadState { NEW, RUNNABLE, BLOCKED, WAITING, TIMED_WAITING, TERMINATED };
inline constexpr size_t java_thread_state_count = 6;
std::string_view name_of(JavaThreadState s);

// Sub-states are not exclusive: a thread can be parked and suspended.
enum class ThreadSubState { parked, sleeping, object_wait, native, suspended };
inline constexpr size_t thread_sub_state_count = 5;
std::string_view name_of(ThreadSubState s);

// Mirrors java.lang.Thread.State as the JVM derives it (JVMTI_JAVA_LANG_THREAD_STATE_MASK).
JavaThreadState java_state_of(jint jvmti_state);
bool has_sub_state(jint jvmti_state, ThreadSubState s);

struct ThreadStateCounts {
  std::array<uint64_t, java_thread_state_count> by_state{};
  std::array<uint64_t, thread_sub_state_count> by_sub_state{};
  bool native_and_suspended_known = true;                           // false when those two bits were not asked for
  std::array<uint64_t, java_thread_state_count> daemon_by_state{};  // the daemon threads of by_state
  bool daemon_known = false;  // false when the JVM's Thread has no daemon field we can read

  // Once per thread per scrape: one Thread.State lookup, then adds (no
  // branch per sub-state).
  void add(jint jvmti_state, bool daemon = false);
  uint64_t of(JavaThreadState s) const { return by_state[static_cast<size_t>(s)]; }
  uint64_t daemon_of(JavaThreadState s) const { return daemon_by_state[static_cast<size_t>(s)]; }
  uint64_t of(ThreadSubState s) const { return by_sub_state[static_cast<size_t>(s)]; }
};

}  // namespace jvmsight
