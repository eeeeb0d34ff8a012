#pragma once
// What a thread used, told by the thread itself as it ends: the ThreadEnd
// callback reads its own CPU clock (a system call, no allocation) and its
// java.lang.Thread's identity hash, and hands both to the agent thread
// through a fixed ring, so that the CPU a thread used between the last
// background reading and its end is not lost. A full ring drops the record:
// that thread's last reading then stands.
#include <cstdint>

#include "common/bounded_ring.h"

namespace jvmsight {

struct EndedThread {
  int32_t hash = 0;    // identity hash of the java.lang.Thread
  int64_t cpu_ns = 0;  // its CLOCK_THREAD_CPUTIME_ID at ThreadEnd
};

using EndedThreadRing = BoundedRing<EndedThread, 2048>;

}  // namespace jvmsight
