#pragma once
// Counts virtual threads from VirtualThreadStart/End (JDK 21+). The event
// callbacks only bump relaxed atomics: they run on every virtual thread.
#include <atomic>
#include <cstdint>

namespace jvmsight {

class VirtualThreadCounter {
 public:
  void on_start() { started_.fetch_add(1, std::memory_order_relaxed); }
  void on_end() { ended_.fetch_add(1, std::memory_order_relaxed); }

  void set_supported(bool supported) { supported_.store(supported, std::memory_order_relaxed); }
  bool supported() const { return supported_.load(std::memory_order_relaxed); }
  uint64_t started() const { return started_.load(std::memory_order_relaxed); }
  // Live = started - ended since the agent began watching. When attached at
  // runtime, threads that started before the attach and end after it would
  // push this below zero: clamp, the docs say so.
  uint64_t live() const {
    uint64_t ended = ended_.load(std::memory_order_relaxed);
    uint64_t started = started_.load(std::memory_order_relaxed);
    return started > ended ? started - ended : 0;
  }

 private:
  std::atomic<bool> supported_{false};
  std::atomic<uint64_t> started_{0};
  std::atomic<uint64_t> ended_{0};
};

}  // namespace jvmsight
