#pragma once
// Long contended monitor waits, one record each, handed from the
// MonitorContendedEntered callback to the agent thread (which turns them into
// "monitor.contended_wait" spans): a fixed ring allocated with the recorder,
// whose producers never wait (common/bounded_ring.h: a full ring drops the
// new record and counts it; the memory ordering is written there).
#include <cstdint>

#include "common/bounded_ring.h"

namespace jvmsight {

struct ContendedWait {
  uint64_t start_ns = 0;    // monotonic clock
  uint64_t end_ns = 0;      // when the thread got the monitor
  int32_t lock_hash = 0;    // the lock's identity hash; 0 beyond the recorder's table
  int32_t thread_hash = 0;  // the waiting java.lang.Thread's identity hash; 0 if unknown
};

using ContendedWaitRing = BoundedRing<ContendedWait, 256>;

}  // namespace jvmsight
