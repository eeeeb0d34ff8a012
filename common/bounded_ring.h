#pragma once
// Records handed from JVM TI event callbacks (any thread) to the agent
// thread: a fixed ring allocated up front. Producers claim a cell with one
// CAS and never wait; a full ring drops the new record and counts it. One
// consumer. Safe in event callbacks: no allocation, no lock.
//
// Memory ordering (docs/ARM64.md): a bounded queue with a sequence number
// per cell. A producer loads the cell's seq (acquire: the consumer's read of
// the previous lap's record happens before this overwrite), claims the
// position with a relaxed CAS on tail_ (the claim only orders producers
// among themselves; the cell's seq carries the data), writes the record and
// publishes it with seq = pos + 1 (release). The consumer loads seq
// (acquire) before reading the record, then frees the cell for the next lap
// with a release store. dropped_ is a counter: relaxed.
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace jvmsight {

template <class Record, size_t Capacity>
class BoundedRing {
  static_assert((Capacity & (Capacity - 1)) == 0, "a power of two");

 public:
  static constexpr size_t capacity = Capacity;

  BoundedRing() {
    for (size_t i = 0; i < capacity; ++i) cells_[i].seq.store(i, std::memory_order_relaxed);
  }
  BoundedRing(const BoundedRing&) = delete;
  BoundedRing& operator=(const BoundedRing&) = delete;

  // Any thread. False (and counted) when full.
  bool push(const Record& r) {
    uint64_t pos = tail_.load(std::memory_order_relaxed);
    for (;;) {
      Cell& cell = cells_[pos & (capacity - 1)];
      const uint64_t seq = cell.seq.load(std::memory_order_acquire);
      const auto diff = static_cast<int64_t>(seq - pos);
      if (diff == 0) {
        if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
          cell.record = r;
          cell.seq.store(pos + 1, std::memory_order_release);
          return true;
        }
      } else if (diff < 0) {
        // The cell still holds the record of the previous lap: full.
        dropped_.fetch_add(1, std::memory_order_relaxed);
        return false;
      } else {
        pos = tail_.load(std::memory_order_relaxed);  // another producer took it
      }
    }
  }

  // The one consumer; false when empty.
  bool pop(Record& out) {
    Cell& cell = cells_[head_ & (capacity - 1)];
    if (cell.seq.load(std::memory_order_acquire) != head_ + 1) return false;
    out = cell.record;
    cell.seq.store(head_ + capacity, std::memory_order_release);
    ++head_;
    return true;
  }

  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  // seq == position: free for the producer claiming that position;
  // seq == position + 1: written, for the consumer.
  struct Cell {
    std::atomic<uint64_t> seq{0};
    Record record{};
  };
  std::array<Cell, capacity> cells_;
  alignas(64) std::atomic<uint64_t> tail_{0};  // next position to claim
  alignas(64) uint64_t head_ = 0;              // next position to read (consumer only)
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace jvmsight
