#pragma once
// The stacks threads waited at, interned for the contention profiles, and
// what was recorded against each. intern() and add() run in the monitor
// event callbacks on application threads: no allocation, no lock, no JNI,
// no JVM TI (the caller takes the stack); a fixed table of lock-free
// entries, a stack known by a 64-bit hash of its frames. When the table is
// full a stack counts under `other` and the drop is counted. The agent
// thread reads entries once they are complete and names their frames
// (FrameNames): the table keeps only jmethodIDs and bytecode indexes.
//
// What the callbacks add is pending: the waits of the time the events were
// on since the agent thread's last fold. fold() moves it into the totals,
// scaled to the whole time since the last fold (the events may have been
// off for most of it: ContentionDutyCycle); a reader scales what is still
// pending by the time so far.
#include <jvmti.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace jvmsight {

class StackTable {
 public:
  static constexpr uint32_t capacity = 16384;  // entries; a power of two
  static constexpr uint32_t max_depth = 64;    // deeper stacks keep their leaf-most frames
  static constexpr uint32_t max_probe = 32;
  // Stack ids: an entry's index + first_entry; 0 and 1 are none and other.
  static constexpr uint32_t no_stack = 0;
  static constexpr uint32_t other = 1;
  static constexpr uint32_t first_entry = 2;

  StackTable();

  // Hot path. The id of these frames (leaf first), claiming an entry for a
  // stack not seen before; other when the table is full. Depth 0 is a stack
  // of its own: one frame whose method is null.
  uint32_t intern(const jvmtiFrameInfo* frames, uint32_t depth);
  // Hot path. weight: waits stood for, in 1/weight_one units (a sampled wait
  // stands for several); delay_ns: the time they stand for. Pending until
  // the next fold.
  static constexpr uint64_t weight_one = 1 << 16;
  void add(uint32_t id, uint64_t weight, uint64_t delay_ns);
  // Agent thread: every entry's pending values, times factor, into its
  // totals.
  void fold(double factor);

  // Agent thread: fn(id, frames, depth, weight, delay_ns) for every complete
  // entry, then fn(other, nullptr, 0, ...) for what the full table dropped;
  // the values are the totals plus pending times pending_factor.
  template <class Fn>
  void for_each(Fn&& fn, double pending_factor = 1.0) const;
  // Stacks kept, and interns that found the table full.
  uint32_t kept() const { return kept_.load(std::memory_order_relaxed); }
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

  // Hash of a stack's frames, never 0 (0 marks a free entry).
  static uint64_t hash(const jvmtiFrameInfo* frames, uint32_t depth);

 private:
  // Memory ordering: an entry is claimed once by a CAS of its hash (acq_rel)
  // and never changes hands. Its claimer writes the frames, then stores
  // depth with release; the agent thread loads depth with acquire and reads
  // the frames only when it is nonzero. Threads finding the hash already
  // there may add values before the frames are complete: the values are
  // counters of their own, read relaxed.
  struct Entry {
    std::atomic<uint64_t> hash;
    std::atomic<uint32_t> depth;   // 0 until the frames are written
    uint32_t frames_at;            // where in frames_, written before depth
    std::atomic<uint64_t> weight;  // folded totals
    std::atomic<uint64_t> delay_ns;
    std::atomic<uint64_t> pending_weight;  // added since the last fold
    std::atomic<uint64_t> pending_delay_ns;
  };
  static void fold(Entry& e, double factor);
  static uint64_t scaled(const std::atomic<uint64_t>& total, const std::atomic<uint64_t>& pending, double factor) {
    return total.load(std::memory_order_relaxed) +
           static_cast<uint64_t>(static_cast<double>(pending.load(std::memory_order_relaxed)) * factor);
  }
  struct Unmap {
    size_t bytes;
    void operator()(void* memory) const;
  };
  // Frames of every stack one after the other (a bump allocation per new
  // stack), so memory follows the frames kept, not capacity x max_depth.
  static constexpr size_t frame_capacity = size_t{capacity} * max_depth;

  // Both on anonymous zero pages: resident only where stacks land.
  std::unique_ptr<Entry, Unmap> entries_;
  std::unique_ptr<jvmtiFrameInfo, Unmap> frames_;
  Entry other_{};
  std::atomic<uint64_t> frames_used_{0};
  std::atomic<uint32_t> kept_{0};
  std::atomic<uint64_t> dropped_{0};
};

template <class Fn>
void StackTable::for_each(Fn&& fn, double pending_factor) const {
  const Entry* entries = entries_.get();
  for (uint32_t i = 0; i < capacity; ++i) {
    const Entry& e = entries[i];
    const uint32_t depth = e.depth.load(std::memory_order_acquire);
    if (depth == 0) continue;
    fn(i + first_entry, frames_.get() + e.frames_at, depth, scaled(e.weight, e.pending_weight, pending_factor),
       scaled(e.delay_ns, e.pending_delay_ns, pending_factor));
  }
  fn(other, nullptr, 0, scaled(other_.weight, other_.pending_weight, pending_factor),
     scaled(other_.delay_ns, other_.pending_delay_ns, pending_factor));
}

}  // namespace jvmsight
