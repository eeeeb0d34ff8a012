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
// grows, and only above that rate.
#include <atomic>
#include <chrono>
#include <cstdint>

#include "collectors/contention/contention_sampler.h"
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
      : rate_ns_(rate_ns), on_since_(start) {}

  StackTable& table() { return table_; }
  const StackTable& table() const { return table_; }
  uint64_t rate_ns() const { return rate_ns_; }

  // Hot path (Enter). Whether to walk this entry's stack, at the shift
  // walk_shift() just gave; random: 64 uniformly distributed bits
  // (wait_random).
  bool draw_walk(uint64_t random, uint32_t shift) {
    if ((random & ((uint64_t{1} << shift) - 1)) != 0) return false;
    walks_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  // The thread-local word for a walked stack (its id and the walk shift it
  // was drawn at, which the kept wait is scaled by), or for none.
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
  void pace(bool events_on, uint32_t duty_shift, Clock::time_point now = Clock::now()) {
    if (rate_ns_ == 0) return;
    if (on_since_ != Clock::time_point{}) on_time_ += now - on_since_;
    on_since_ = events_on ? now : Clock::time_point{};
    if (on_time_ < pace_window) return;
    const double seconds = std::chrono::duration<double>(on_time_).count();
    const uint32_t shift = walk_shift();
    const uint64_t walks = walks_.exchange(0, std::memory_order_relaxed);
    const uint64_t per_cycle = (walks << shift) >> duty_shift;
    walk_shift_.store(pacing_.next_shift(shift, per_cycle, seconds), std::memory_order_relaxed);
    on_time_ = Clock::duration::zero();
  }

 private:
  StackTable table_;
  const uint64_t rate_ns_;
  std::atomic<uint64_t> samples_{0};
  // The shift is read at every Enter and written a few times a second,
  // the count at each walk: a line of their own, apart from the table's.
  alignas(64) std::atomic<uint32_t> walk_shift_{0};
  std::atomic<uint64_t> walks_{0};
  const ContentionSampler pacing_{walks_per_second, max_walk_shift};
  Clock::time_point on_since_;  // when the events went on; none while off
  Clock::duration on_time_{};   // events on since the last look
};

}  // namespace jvmsight
