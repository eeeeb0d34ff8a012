#pragma once
// Counts virtual threads from VirtualThreadStart/End (JDK 21+). The event
// callbacks only bump atomics: they run on every virtual thread.
//
// Memory ordering (docs/ARM64.md): a thread's start is counted before its end
// (the JVM orders the two events of one virtual thread, even across
// carriers). on_end is a release and live() loads ended_ with acquire before
// started_, so every start whose end the reader counted is counted too and
// started >= ended holds for what the agent saw, also on ARM, where two
// relaxed loads may be satisfied out of order. A release add costs what a
// relaxed one does there (LDADDL vs LDADD) and nothing more on x86.
#include <atomic>
#include <cstdint>

namespace jvmsight {

class VirtualThreadCounter {
 public:
  void on_start() { started_.fetch_add(1, std::memory_order_relaxed); }
  void on_end() { ended_.fetch_add(1, std::memory_order_release); }

  void set_supported(bool supported) { supported_.store(supported, std::memory_order_relaxed); }
  bool supported() const { return supported_.load(std::memory_order_relaxed); }
  // supported_ and started() stand alone (a flag, a counter): relaxed.
  uint64_t started() const { return started_.load(std::memory_order_relaxed); }
  // Live = started - ended since the agent began watching. When attached at
  // runtime, threads that started before the attach and end after it would
  // push this below zero: clamp, the docs say so.
  uint64_t live() const {
    uint64_t ended = ended_.load(std::memory_order_acquire);
    uint64_t started = started_.load(std::memory_order_relaxed);
    return started > ended ? started - ended : 0;
  }

 private:
  std::atomic<bool> supported_{false};
  std::atomic<uint64_t> started_{0};
  std::atomic<uint64_t> ended_{0};
};

}  // namespace jvmsight
