#pragma once
// The narrow seam between the thread collector and the JVM, so the collector
// can be unit-tested with a fake. The real one is JvmtiThreadSource.
#include <cstdint>
#include <optional>

#include "collectors/threads/thread_state.h"

namespace jvmsight {

// java.lang.management.ThreadMXBean's counters, the numbers client_java exports.
struct ThreadCounts {
  int64_t live = 0;
  int64_t daemon = 0;
  int64_t peak = 0;
  int64_t started = 0;
};

class ThreadSource {
 public:
  virtual ~ThreadSource() = default;
  // Adds the state of every live platform thread; false if the JVM refused.
  virtual bool count_states(ThreadStateCounts& out) = 0;
  virtual std::optional<ThreadCounts> counts() = 0;
  // Live virtual threads (JDK 21+); nullopt where the JVM has none or they
  // cannot be counted.
  virtual std::optional<uint64_t> live_virtual_threads() = 0;
  // Virtual threads started since the agent loaded (JDK 21+); nullopt
  // where they cannot be counted or the user turned the count off.
  virtual std::optional<uint64_t> virtual_threads_started() = 0;
};

}  // namespace jvmsight
