#pragma once
// The JVM TI side of GC pause measurement. GarbageCollectionStart/Finish run
// with the VM stopped, where only timestamps, atomics and raw monitors are
// allowed: the callbacks read two clocks and write one preallocated slot of a
// single-producer ring (the VM serializes the two events), nothing else. The
// agent thread is the single consumer.
//
// Memory ordering (docs/ARM64.md):
// - head_/tail_: the ring's hand-off. The producer writes a slot, then
//   publishes it with head_ (release); the consumer loads head_ (acquire)
//   before reading slots. The consumer frees slots with tail_ (release) after
//   reading them; the producer loads tail_ (acquire) before overwriting one,
//   so a slot is never rewritten while it is read. Each index is also read
//   relaxed by its own writer (its own last value).
// - start_*_ns_, in_pause_: written at start, read at finish. Both run with
//   the VM stopped and the JVM's safepoint protocol orders them (full
//   barriers on every architecture), so they need no ordering of their own.
// - finished_, dropped_, supported_: counters and a flag read alone: relaxed.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "common/clock.h"

namespace jvmsight {

// One stop-the-world pause as JVM TI saw it. Monotonic times (CLOCK_MONOTONIC,
// the clock the JVM's own GC timestamps are taken from) time it and match it
// to the collector's notification; wall-clock times are for span records.
struct RawGcPause {
  int64_t start_mono_ns = 0;
  int64_t end_mono_ns = 0;
  int64_t start_wall_ns = 0;
  int64_t end_wall_ns = 0;
  int64_t duration_ns() const { return end_mono_ns - start_mono_ns; }
};

class GcPauseRecorder {
 public:
  // Enough for minutes of back-to-back young pauses between two drains
  // (the agent thread drains every few hundred ms).
  static constexpr size_t capacity = 4096;

  // Hot path (VM stopped): no malloc, no locks, no JNI, no logging.
  void on_start() noexcept {
    start_mono_ns_.store(clock_ns(CLOCK_MONOTONIC), std::memory_order_relaxed);
    start_wall_ns_.store(clock_ns(CLOCK_REALTIME), std::memory_order_relaxed);
    in_pause_.store(true, std::memory_order_relaxed);
  }

  void on_finish() noexcept {
    int64_t end_mono = clock_ns(CLOCK_MONOTONIC);
    int64_t end_wall = clock_ns(CLOCK_REALTIME);
    // A finish without its start: the agent was enabled mid-pause. Not a pause we timed.
    if (!in_pause_.exchange(false, std::memory_order_relaxed)) return;
    finished_.fetch_add(1, std::memory_order_relaxed);
    size_t head = head_.load(std::memory_order_relaxed);
    if (head - tail_.load(std::memory_order_acquire) >= capacity) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    slots_[head % capacity] = RawGcPause{start_mono_ns_.load(std::memory_order_relaxed), end_mono,
                                         start_wall_ns_.load(std::memory_order_relaxed), end_wall};
    head_.store(head + 1, std::memory_order_release);
  }

  // Consumer (agent thread only). Calls fn(const RawGcPause&) for each
  // recorded pause, oldest first; returns how many.
  template <class Fn>
  size_t drain(Fn&& fn) {
    size_t tail = tail_.load(std::memory_order_relaxed);
    size_t head = head_.load(std::memory_order_acquire);
    for (size_t i = tail; i != head; ++i) fn(static_cast<const RawGcPause&>(slots_[i % capacity]));
    tail_.store(head, std::memory_order_release);
    return head - tail;
  }

  uint64_t finished() const { return finished_.load(std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

  void set_supported(bool supported) { supported_.store(supported, std::memory_order_relaxed); }
  bool supported() const { return supported_.load(std::memory_order_relaxed); }

 private:
  std::array<RawGcPause, capacity> slots_{};
  std::atomic<size_t> head_{0};  // written by the producer only
  std::atomic<size_t> tail_{0};  // written by the consumer only
  std::atomic<int64_t> start_mono_ns_{0};
  std::atomic<int64_t> start_wall_ns_{0};
  std::atomic<bool> in_pause_{false};
  std::atomic<uint64_t> finished_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<bool> supported_{false};
};

}  // namespace jvmsight
