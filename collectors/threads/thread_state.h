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

  // `threads` threads in this state: one Thread.State lookup, then adds
  // (no branch per sub-state).
  void add(jint jvmti_state, bool daemon = false, uint64_t threads = 1);
  uint64_t of(JavaThreadState s) const { return by_state[static_cast<size_t>(s)]; }
  uint64_t daemon_of(JavaThreadState s) const { return daemon_by_state[static_cast<size_t>(s)]; }
  uint64_t of(ThreadSubState s) const { return by_sub_state[static_cast<size_t>(s)]; }
};

// Tallies the status words of a walk over every thread before they reach
// ThreadStateCounts: 10,000 threads hold a handful of distinct words, so a
// thread costs a compare and an increment, and the mapping to states runs
// once per distinct word (per thread, it was a third of the walk's time).
class StatusTally {
 public:
  explicit StatusTally(ThreadStateCounts& out) : out_(out) {}
  StatusTally(const StatusTally&) = delete;
  StatusTally& operator=(const StatusTally&) = delete;

  void add(jint status, bool daemon) {
    const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(status)) << 1 | (daemon ? 1 : 0);
    if (last_ < used_ && keys_[last_] == key) {  // neighbours in the list often share a state
      ++counts_[last_];
      return;
    }
    for (size_t i = 0; i < used_; ++i) {
      if (keys_[i] == key) {
        ++counts_[i];
        last_ = i;
        return;
      }
    }
    if (used_ == capacity) return out_.add(status, daemon);  // more distinct words than slots: counted at once
    keys_[used_] = key;
    counts_[used_] = 1;
    last_ = used_++;
  }

  // Adds the tallies to the counts (once, at the end of the walk).
  void flush() {
    for (size_t i = 0; i < used_; ++i)
      out_.add(static_cast<jint>(static_cast<uint32_t>(keys_[i] >> 1)), (keys_[i] & 1) != 0, counts_[i]);
    used_ = 0;
    last_ = 0;
  }

 private:
  static constexpr size_t capacity = 32;
  ThreadStateCounts& out_;
  std::array<uint64_t, capacity> keys_{};  // status word << 1 | daemon
  std::array<uint64_t, capacity> counts_{};
  size_t used_ = 0;
  size_t last_ = 0;
};

}  // namespace jvmsight
