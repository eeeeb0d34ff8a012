#pragma once
// The hot half of the monitor contention profile (/debug/pprof/mutex):
// MonitorContendedEnter walks the waiting thread's stack (while the thread
// is about to block anyway) at one entry in 2^walk_shift, interns it and
// keeps its id in the thread's word of the profile's own JVM TI
// environment; MonitorContendedEntered, which runs inside the critical
// section, only decides by the wait's length whether to keep it
// (wait_sampling.h) and adds to two counters. See StackTable for what the
// callbacks may do.
//
// Why thin the walks: a walk costs more than the rest of the callbacks
// together, and more the deeper the stack, and at the stress extreme the
// events still fire thousands of times a second while duty cycled (about
// 4,000 a second in the contention stress bench; 100,000 with
// contention_sampling=off). So the agent thread keeps the walks under
// walks_per_second: at one entry in 2^walk_shift, drawn at random,
// independent of how long the wait will be, and a kept wait then stands
// for 2^walk_shift as much. The estimate stays unbiased; only its spread
// grows, and only above that rate. A lock entered rarely beside a busy one
// would then get almost no walk, and its share of the profile would swing
// from nothing to several times its due: so each lock's first
// first_walks entries of every pace window are walked whatever the shift
// and stand for themselves alone (a draw taken with probability 1), within
// a bound on such walks a window.
//
// Duty cycled (ContentionDutyCycle), the events are on for a slice and off
// for the rest of a cycle. What the on-time saw stands for the whole time
// between two slices the events were on at, by the time measured, not by
// the cycle's nominal 2^k (slices slip on a loaded machine): the agent
// thread folds it into the totals when the events come back on, and a
// profile taken in between scales what is pending by the time so far.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>

#include "collectors/contention/contention_sampler.h"
#include "collectors/contention/monitor_contention_recorder.h"
#include "collectors/contention/stack_table.h"
#include "collectors/contention/wait_sampling.h"

namespace jvmsight {

class MonitorStackRecorder {
 public:
  using Clock = std::chrono::steady_clock;
  // At most about this many stack walks a second (between a quarter and
  // all of it above the rate): an eighth of the stress bench's events, and
  // over a 15 s scrape window thousands of chances.
  static constexpr uint32_t walks_per_second = 500;
  // One entry in 2^14 at the thinnest: 61 walks a second at a million
  // entries seen a second (contention_sampling=off).
  static constexpr uint32_t max_walk_shift = 14;

  // rate_ns: Go's block profile rate (0 keeps every wait, each with its
  // own stack: no walk is thinned either). The events may be on from the
  // start (the first pace counts from it).
  explicit MonitorStackRecorder(uint64_t rate_ns, Clock::time_point start = Clock::now())
      : rate_ns_(rate_ns), on_since_(start), cycle_since_(start) {}

  StackTable& table() { return table_; }
  const StackTable& table() const { return table_; }
  uint64_t rate_ns() const { return rate_ns_; }

  // Walked whatever the shift: each lock's first entries of a pace window,
  // and at most this many such walks a window.
  static constexpr uint32_t first_walks = 64;
  static constexpr uint32_t first_walks_per_window = walks_per_second / 2;
  static constexpr size_t lock_slots = MonitorContentionRecorder::slot_count + 1;  // and the overflow

  // Hot path (Enter). Whether to walk this entry's stack: the shift its
  // kept wait is scaled by, or -1 for none. shift: what walk_shift() just
  // gave; lock_slot: the lock's MonitorContentionRecorder slot; random: 64
  // uniformly distributed bits (wait_random), unused at shift 0.
  int32_t walk_at(uint32_t shift, uint32_t lock_slot, uint64_t random) {
    // The pacing counts the drawn walks only: first walks are bounded apart.
    if (shift != 0 && first_walk(lock_slot)) return 0;
    if ((random & ((uint64_t{1} << shift) - 1)) != 0) return -1;
    walks_.fetch_add(1, std::memory_order_relaxed);
    return static_cast<int32_t>(shift);
  }
  // The thread-local word for a walked stack (its id and the shift
  // walk_at gave, which the kept wait is scaled by), or for none.
  static uint64_t walked(uint32_t stack_id, uint32_t shift) { return uint64_t{shift} << 32 | stack_id; }
  static constexpr uint64_t not_walked = StackTable::no_stack;
  uint32_t walk_shift() const { return walk_shift_.load(std::memory_order_relaxed); }

  // Hot path (Entered), for a kept wait: word is what Enter stored.
  void keep(uint64_t word, const KeptWait& kept) {
    const auto stack_id = static_cast<uint32_t>(word);
    const auto shift = static_cast<uint32_t>(word >> 32);
    if (stack_id == StackTable::no_stack) return;  // not walked, or its stack could not be taken
    table_.add(stack_id, kept.weight << shift, kept.delay_ns << shift);
    samples_.fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t samples() const { return samples_.load(std::memory_order_relaxed); }

  // Agent thread, every slice (ContentionDutyCycle::slice): the next
  // walk_shift from the walks over the last pace_window of time the events
  // were on (raised at once, lowered a step at a time). events_on: whether
  // they are on from now until the next call; duty_shift: the duty cycle's
  // k. Duty cycled, the events come in bursts (one slice on in 2^k), so the
  // rate over the burst, taken over 2^k as much time, is what the walks
  // cost a second.
  static constexpr std::chrono::milliseconds pace_window{250};
  // Every slice the events are on at, what they saw since the last such
  // slice is folded into the totals (see the top).
  void pace(bool events_on, uint32_t duty_shift, Clock::time_point now = Clock::now()) {
    if (on_since_ != Clock::time_point{}) {
      on_time_ += now - on_since_;
      cycle_on_ += now - on_since_;
    }
    on_since_ = events_on ? now : Clock::time_point{};
    if (events_on) {
      table_.fold(scale(now - cycle_since_, cycle_on_));
      cycle_since_ = now;
      cycle_on_ = Clock::duration::zero();
    }
    // A slice that came a little early still closes a window.
    if (rate_ns_ == 0 || on_time_ < pace_window * 9 / 10) return;
    const double seconds = std::chrono::duration<double>(on_time_).count();
    const uint32_t shift = walk_shift();
    const uint64_t walks = walks_.exchange(0, std::memory_order_relaxed);
    const uint64_t per_cycle = (walks << shift) >> duty_shift;
    walk_shift_.store(pacing_.next_shift(shift, per_cycle, seconds), std::memory_order_relaxed);
    on_time_ = Clock::duration::zero();
    for (auto& n : lock_walks_) n.store(0, std::memory_order_relaxed);
    first_walks_left_.store(first_walks_per_window, std::memory_order_relaxed);
  }

  // Agent thread: fn as StackTable::for_each gives it, what is still
  // pending scaled by the time since the last fold over the events' on-time.
  template <class Fn>
  void for_each_estimate(Fn&& fn, Clock::time_point now = Clock::now()) const {
    Clock::duration on = cycle_on_;
    if (on_since_ != Clock::time_point{} && now > on_since_) on += now - on_since_;
    table_.for_each(fn, scale(now - cycle_since_, on));
  }

 private:
  static double scale(Clock::duration whole, Clock::duration on) {
    if (on <= Clock::duration::zero() || whole <= on) return 1.0;
    return std::chrono::duration<double>(whole) / on;
  }
  // The lock's first entries of the window, while the window's bound lasts.
  bool first_walk(uint32_t lock_slot) {
    std::atomic<uint32_t>& n = lock_walks_[lock_slot < lock_slots ? lock_slot : lock_slots - 1];
    if (n.load(std::memory_order_relaxed) >= first_walks) return false;
    n.fetch_add(1, std::memory_order_relaxed);
    return first_walks_left_.fetch_sub(1, std::memory_order_relaxed) > 0;
  }

  StackTable table_;
  const uint64_t rate_ns_;
  std::atomic<uint64_t> samples_{0};
  // The shift is read at every Enter and written a few times a second,
  // the count at each walk: a line of their own, apart from the table's.
  alignas(64) std::atomic<uint32_t> walk_shift_{0};
  std::atomic<uint64_t> walks_{0};
  const ContentionSampler pacing_{walks_per_second, max_walk_shift};
  std::atomic<int32_t> first_walks_left_{first_walks_per_window};
  alignas(64) std::array<std::atomic<uint32_t>, lock_slots> lock_walks_{};  // first walks this window, by lock
  Clock::time_point on_since_;                                              // when the events went on; none while off
  Clock::duration on_time_{};                                               // events on since the last look
  Clock::time_point cycle_since_;                                           // the last fold
  Clock::duration cycle_on_{};                                              // events on since then, to on_since_
};

}  // namespace jvmsight
