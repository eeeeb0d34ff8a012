#pragma once
// Virtual-thread pinnings (JDK 21+), fed by JVM TI Breakpoint events the
// agent sets in the JDK's own code (agent/pinning_probes.cpp): a pinning is
// one call of VirtualThread.parkOnCarrierThread, the method a virtual thread
// that could not unmount parks its carrier in, and the one that posts JFR's
// jdk.VirtualThreadPinned (METRICS.md, "Virtual-thread pinning").
//
// The breakpoint callbacks are hot only while something pins (the probed
// method runs only then): a lookup in a fixed table, relaxed atomics, and
// the start kept in the JVM TI thread-local storage of the pinned virtual
// thread, which stays on its carrier until the park ends. No malloc, mutex,
// JNI or logging.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "collectors/event_phase.h"
#include "model/telemetry.h"

namespace jvmsight {

// The thread-local word while a pinned park is on its way. Its two low bits
// are 00 and it is never 0, which ThreadStamp (monitor_contention_recorder.h)
// never gives: an enter stamp has bit 0 set, a wait stamp bits 1-0 = 10. So
// the contention callbacks, which share the storage, never take one for
// theirs, nor the pinning probe theirs for a pinning.
struct PinStamp {
  static constexpr unsigned time_shift = 3;
  static constexpr uint64_t time_mask = (uint64_t{1} << (64 - time_shift)) - 1;
  static constexpr uint64_t start(uint64_t now_ns) { return ((now_ns & time_mask) << time_shift) | 4; }
  static constexpr bool is_start(uint64_t s) { return (s & 7) == 4; }
  static constexpr uint64_t since(uint64_t s, uint64_t now_ns) { return (now_ns - (s >> time_shift)) & time_mask; }
};

class PinningRecorder {
 public:
  // Upper bounds in seconds; 20 ms is JFR's default threshold for the event.
  static constexpr std::array<double, 14> upper_bounds{0.0001, 0.0005, 0.001, 0.005, 0.01, 0.02, 0.05,
                                                       0.1,    0.25,   0.5,   1,     2.5,  5,    10};
  enum class Action : uint8_t { park_start, park_end };
  struct Probe {
    const void* method = nullptr;  // a jmethodID
    int64_t location = -1;
    Action action = Action::park_start;
  };
  static constexpr size_t max_probes = 8;

  // Agent thread, before the Breakpoint event is enabled. False when full.
  bool add_probe(const Probe& probe);
  void set_supported(bool on) { supported_.store(on, std::memory_order_release); }

  // Breakpoint callback: null if the location is not one of ours.
  const Probe* probe_at(const void* method, int64_t location) const;
  // The thread-local word after a probe fired, given the word before it;
  // records a finished pinning, as 2^k of them while the Breakpoint event
  // is duty cycled (phase: JDK 21 with virtual threads started fast), and
  // only if its start is from the same on phase.
  uint64_t on_probe(const Probe& probe, uint64_t stamp, uint64_t now_ns, EventPhase phase = {});

  // Agent thread.
  bool supported() const { return supported_.load(std::memory_order_acquire); }
  HistogramValue histogram() const;

 private:
  std::array<Probe, max_probes> probes_{};
  size_t probe_count_ = 0;
  std::atomic<bool> supported_{false};
  std::array<std::atomic<uint64_t>, upper_bounds.size() + 1> buckets_{};  // last: +Inf
  std::atomic<uint64_t> sum_ns_{0};
};

}  // namespace jvmsight
