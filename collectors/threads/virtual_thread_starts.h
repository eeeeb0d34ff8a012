#pragma once
// Virtual-thread starts (JDK 21+) at no cost per thread. Every
// java.lang.Thread, platform or virtual, takes its id from one counter in
// the VM: Thread$ThreadIdentifiers.next() adds to it through Unsafe at the
// address the private native Thread.getNextThreadIdOffset() returns, a
// static of libjvm's. So the ids issued since the agent loaded, less the
// platform threads started (ThreadStart, the roster's change counter), are
// the virtual threads made; one load on the agent thread per scrape, where
// a VirtualThreadStart event would need can_support_virtual_threads, which
// makes HotSpot report every mount and unmount (docs/BENCHMARKS.md).
// Also counted, and never taken back: a Thread object made and never
// started, and a thread the JVM makes for itself without a ThreadStart (a
// compiler thread added under load): none and one over 100,000 virtual
// threads on 21 and 25 (docs/METRICS.md). An aligned 8-byte volatile load
// is single-copy atomic on x86-64 and AArch64.
#include <jni.h>

#include <cstdint>
#include <optional>

#include "collectors/threads/thread_roster.h"

namespace jvmsight {

class VirtualThreadStarts {
 public:
  // Agent thread, once; platform starts are the roster's ThreadStart count
  // (the roster outlives this). A
  // platform thread made before this and started after it counts in the
  // starts and not in the ids, so the count stays that many short for
  // good: the JVM posts ThreadStart from the new thread, after start()
  // returned (the main thread's comes after VMInit; a fixture's carrier
  // threads starting while the agent opened this left it two short once
  // in five runs). A constant offset, which a rate does not see. False
  // (quietly) where the JDK has no such counter: before 21.
  bool open(JNIEnv* jni, const ThreadRoster& roster);
  bool available() const { return next_id_ != nullptr; }
  // Agent thread: the count since open; nullopt if unavailable.
  std::optional<uint64_t> started();

  // The count from the counter's value and the platform starts, given the
  // values at open. Never below an earlier answer: a platform thread made
  // but not yet started reads as virtual for a moment, and a counter must
  // not go back once its start is seen.
  static uint64_t count(int64_t ids, int64_t ids_at_open, uint64_t platform_starts, uint64_t platform_at_open,
                        uint64_t last);

 private:
  const volatile int64_t* next_id_ = nullptr;
  const ThreadRoster* roster_ = nullptr;
  int64_t ids_at_open_ = 0;
  uint64_t platform_at_open_ = 0;
  uint64_t last_ = 0;
};

}  // namespace jvmsight
