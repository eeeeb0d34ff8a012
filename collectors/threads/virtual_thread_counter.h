#pragma once
// Counts virtual-thread starts from VirtualThreadStart (JDK 21+), only with
// virtual_thread_starts=on: the event needs can_support_virtual_threads,
// which makes the JVM report every mount and unmount to JVM TI (its cost is
// in docs/BENCHMARKS.md). The callback only bumps an atomic: it runs on
// every virtual thread. Live virtual threads come from the JDK's thread
// containers instead (VirtualThreadCensus), at no cost per thread.
#include <atomic>
#include <cstdint>

namespace jvmsight {

class VirtualThreadCounter {
 public:
  void on_start() { started_.fetch_add(1, std::memory_order_relaxed); }

  // A flag and a counter standing alone: relaxed.
  void set_supported(bool supported) { supported_.store(supported, std::memory_order_relaxed); }
  bool supported() const { return supported_.load(std::memory_order_relaxed); }
  uint64_t started() const { return started_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> supported_{false};
  std::atomic<uint64_t> started_{0};
};

}  // namespace jvmsight
