#pragma once
// Aggregates contended `synchronized` entries and Object.wait durations from
// JVM TI monitor events. The record_* functions run in event callbacks on
// application threads: only relaxed atomics on preallocated memory, no
// allocation, no lock, no JNI (one fence on ARM: start_phase). Lock identity is the object's identity hash
// (all a callback can learn without JNI); the agent thread maps hashes to
// classes later (MonitorContentionCollector).
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include "collectors/contention/contended_wait_ring.h"
#include "collectors/event_phase.h"
#include "common/clock.h"

namespace jvmsight {

// Wait-time histogram bounds, in seconds and nanoseconds.
inline constexpr size_t wait_bucket_count = 12;  // plus +Inf
inline constexpr std::array<double, wait_bucket_count> wait_bounds_seconds = {
    0.00001, 0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10};

// No member initializers: value-initialize one (`WaitHistogram h{}`) to
// zero it, or place it on zero pages (the recorder's table, which must not
// write its 4096 entries at start).
struct WaitHistogram {
  std::atomic<uint64_t> sum_ns;
  std::array<std::atomic<uint64_t>, wait_bucket_count + 1> buckets;
  // weight: how many waits this one stands for (duty cycled: 2^k).
  void record(uint64_t ns, uint64_t weight = 1);
};
static_assert(std::is_trivially_default_constructible_v<WaitHistogram>);

// A plain copy, for the agent thread.
struct WaitTotals {
  uint64_t count = 0;
  uint64_t sum_ns = 0;
  std::array<uint64_t, wait_bucket_count + 1> buckets{};
  void add(const WaitTotals& o);
};

class MonitorContentionRecorder {
 public:
  static constexpr size_t slot_count = 4096;  // distinct contended lock objects tracked; a power of two
  static constexpr size_t max_probe = 16;

  MonitorContentionRecorder();

  // The table entry of one lock object, or overflow_slot beyond the table.
  // claimed: this call took a free entry (the object's first contention),
  // so the caller tags the object for the agent thread to find its class.
  static constexpr uint32_t overflow_slot = slot_count;
  struct SlotRef {
    uint32_t index;
    bool claimed;
  };

  // Hot path, split across the two events so that the thread holding the
  // monitor does as little as possible: slot_of at MonitorContendedEnter
  // (the thread is about to block anyway), record_contended at
  // MonitorContendedEntered (posted while the thread owns the monitor: its
  // cost lengthens every critical section the lock's waiters queue behind).
  SlotRef slot_of(int32_t identity_hash);
  void record_contended(uint32_t slot, uint64_t wait_ns);
  // weight: see EventPhase (2^k while the wait events are duty cycled).
  void record_wait(uint64_t wait_ns, uint64_t weight) { waits_.record(wait_ns, weight); }
  void record_untimed() { untimed_.fetch_add(1, std::memory_order_relaxed); }

  // Long contended waits, kept one by one for spans (contended_span_min_ms;
  // 0 = none). The callback checks the bound, then pushes to a fixed ring;
  // the agent thread drains it.
  uint64_t long_wait_ns() const { return long_wait_ns_; }
  void set_long_wait_ns(uint64_t ns) { long_wait_ns_ = ns == 0 ? UINT64_MAX : ns; }
  void record_long_wait(uint32_t slot, uint64_t start_ns, uint64_t end_ns, int32_t thread_hash) {
    long_waits_.push(
        {start_ns, end_ns, slot < slot_count ? keys_[slot].load(std::memory_order_relaxed) : 0, thread_hash});
  }
  ContendedWaitRing& long_waits() { return long_waits_; }

  // Agent thread: takes (and zeroes) what each slot gathered since the last
  // drain; fn(identity_hash, totals). Hash 0 is the overflow: objects beyond
  // the table, counted but not told apart.
  template <class Fn>
  void drain(Fn&& fn);
  WaitTotals waits() const;
  uint64_t overflowed() const { return overflowed_.load(std::memory_order_relaxed); }
  uint64_t untimed() const { return untimed_.load(std::memory_order_relaxed); }

  // Duty cycling (ContentionDutyCycle), so that the events cost little at
  // any contention rate: above the contention_sampling rate, the agent
  // thread enables MonitorContendedEnter/Entered for one slice in 2^k
  // (duty_shift() = k), and a pair split across a phase boundary is not
  // timed. start_phase runs before the events are enabled again.
  uint32_t duty_shift() const { return duty_shift_.load(std::memory_order_relaxed); }
  void set_duty_shift(uint32_t shift) { duty_shift_.store(shift, std::memory_order_relaxed); }
  void start_phase(uint64_t now_ns);
  // The same for the other thread-filterable events (MonitorWait/Waited,
  // the pinning probes), cycled with the contended ones only on JDK 21
  // while virtual threads start fast: before they are enabled again, or
  // when their weight changes. From then on a wait or pinning stands for
  // 2^shift, and one begun before is refused: it may have lost its end.
  void start_others(uint64_t now_ns, uint32_t shift);
  // Whether MonitorContendedEntered may use this enter stamp: only one
  // written since the events were last enabled. The stamp is left in place
  // after use (the next Enter overwrites it, one JVM TI call less per
  // event); an Entered whose Enter fell in an off phase finds an older one.
  bool stamp_usable(uint64_t enter_stamp, uint64_t now_ns) const;
  // For MonitorWaited and the pinning probes: the phase they are in.
  EventPhase others_phase() const;

  // Set by every MonitorContendedEnter (every new blocking on a monitor
  // starts there, while the events are on); taken by the deadlock check, which reuses
  // monitor edges while no thread blocked anew. Written only when clear, so
  // contending threads mostly just read its line. A hint, so a relaxed read
  // and a release store (the check's acq_rel exchange pairs with it): an Enter
  // that reads a stale true and skips its store, or a store that lands after
  // the exchange, can only delay the hint; a newly blocked thread also
  // changes the Java pass's candidate list, which alone forbids reusing edges
  // (JvmtiLockGraphSource::plan).
  void note_blocking() {
    if (!blocked_anew_.load(std::memory_order_relaxed)) blocked_anew_.store(true, std::memory_order_release);
  }
  std::atomic<bool>& blocked_anew() { return blocked_anew_; }

 private:
  static WaitTotals take(WaitHistogram& h);

  // Keys and histograms apart: contending threads probe the (read-mostly)
  // keys at Enter while the lock's owner updates its histogram at Entered.
  // Memory ordering (docs/ARM64.md): a key is claimed once with an acq_rel
  // CAS and never changes; loads are acquire (a reader that sees a key sees
  // it whole, and the slot's zeroed histogram). record_long_wait reads the
  // key relaxed: its own thread found or claimed it at Enter, and a thread
  // always sees its own writes and what it read before.
  // The histograms' fetch_add/exchange are relaxed: each bucket and the sum
  // is its own counter, nothing is published through them.
  std::unique_ptr<std::atomic<int32_t>[]> keys_;
  // The per-lock histograms (458 KiB) on an anonymous mapping of their own:
  // the kernel's zero pages, made resident only where a contended lock's
  // slot lands (a page fault on that page's first event, once).
  struct Unmap {
    void operator()(WaitHistogram* table) const;
  };
  std::unique_ptr<WaitHistogram[], Unmap> slots_;
  WaitHistogram overflow_{};
  WaitHistogram waits_{};
  std::atomic<uint64_t> overflowed_{0};
  std::atomic<uint64_t> untimed_{0};
  // Read on every event, written a few times a second at most: a line of
  // their own (alignas also pads the class to a whole line). duty_shift_ is
  // a setting read alone: relaxed. phase_start_ns_: see start_phase.
  alignas(64) std::atomic<uint64_t> phase_start_ns_{0};
  std::atomic<uint32_t> duty_shift_{0};
  std::atomic<uint64_t> others_since_ns_{0};  // 0: never turned off, every start usable
  std::atomic<uint32_t> others_shift_{0};
  uint64_t long_wait_ns_ = UINT64_MAX;  // set before the events are enabled
  std::atomic<bool> blocked_anew_{false};
  ContendedWaitRing long_waits_;
};

template <class Fn>
void MonitorContentionRecorder::drain(Fn&& fn) {
  for (size_t i = 0; i < slot_count; ++i) {
    int32_t key = keys_[i].load(std::memory_order_acquire);
    if (key == 0) continue;
    WaitTotals t = take(slots_[i]);
    if (t.count != 0) fn(key, t);
  }
  WaitTotals o = take(overflow_);
  if (o.count != 0) fn(0, o);
}

// The start of a contended enter or an Object.wait, kept by the event
// callbacks in the thread's JVM TI thread-local storage word (no allocation):
//   enter: [ start ns mod 2^50                         | table slot (13 bits) | 1 ]
//   wait:  [ start ns mod 2^63                                                | 0 ]
// 0 means none. Durations are computed modulo the kept width, so the
// monotonic clock's value never matters, only differences under 13 days
// (a contended entry blocked longer is timed modulo that).
struct ThreadStamp {
  static constexpr unsigned slot_bits = 13;
  static constexpr unsigned enter_shift = 1 + slot_bits;
  static constexpr uint64_t enter_mask = (uint64_t{1} << (64 - enter_shift)) - 1;
  static constexpr uint64_t wait_mask = (uint64_t{1} << 63) - 1;
  static_assert(MonitorContentionRecorder::overflow_slot < (1u << slot_bits), "a slot index fits its bits");

  static constexpr uint64_t enter(uint64_t now_ns, uint32_t slot) {
    return ((now_ns & enter_mask) << enter_shift) | (uint64_t{slot} << 1) | 1;
  }
  // | 2 keeps a wait stamp nonzero (a start at clock value 0); 1 ns off at worst.
  static constexpr uint64_t wait(uint64_t now_ns) { return ((now_ns & wait_mask) << 1) | 2; }
  static constexpr bool is_enter(uint64_t stamp) { return (stamp & 1) != 0; }
  // Low bits 10, as wait() makes them: 00 is PinStamp's (pinning_recorder.h).
  static constexpr bool is_wait(uint64_t stamp) { return (stamp & 3) == 2; }
  static constexpr uint32_t slot(uint64_t enter_stamp) {
    return static_cast<uint32_t>((enter_stamp >> 1) & ((uint64_t{1} << slot_bits) - 1));
  }
  static constexpr uint64_t since(uint64_t stamp, uint64_t now_ns) {
    return is_enter(stamp) ? (now_ns - (stamp >> enter_shift)) & enter_mask : (now_ns - (stamp >> 1)) & wait_mask;
  }
};

// The JVM TI tag given to a lock object on its first contention: nonzero,
// and recognisably ours.
inline constexpr int64_t lock_tag(int32_t identity_hash) {
  return static_cast<int64_t>(static_cast<uint32_t>(identity_hash)) | (int64_t{0x4a53} << 32);
}
inline constexpr int32_t hash_of_lock_tag(int64_t tag) { return static_cast<int32_t>(static_cast<uint32_t>(tag)); }

}  // namespace jvmsight
