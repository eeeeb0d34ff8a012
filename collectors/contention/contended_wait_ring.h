#pragma once
// Long contended monitor waits, one record each, handed from the
// MonitorContendedEntered callback to the agent thread (which turns them into
// "monitor.contended_wait" spans). A fixed ring allocated with the recorder:
// producers on application threads claim a cell with one CAS and never wait;
// a full ring drops the new record and counts it. One consumer.
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

struct ContendedWait {
  uint64_t start_ns = 0;    // monotonic clock
  uint64_t end_ns = 0;      // when the thread got the monitor
  int32_t lock_hash = 0;    // the lock's identity hash; 0 beyond the recorder's table
  int32_t thread_hash = 0;  // the waiting java.lang.Thread's identity hash; 0 if unknown
};

class ContendedWaitRing {
 public:
  static constexpr size_t capacity = 256;  // a power of two

  ContendedWaitRing();
  // Any thread; no allocation, no lock. False (and counted) when full.
  bool push(const ContendedWait& w);
  // The one consumer (agent thread); false when empty.
  bool pop(ContendedWait& out);
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

 private:
  // seq == position: free for the producer claiming that position;
  // seq == position + 1: written, for the consumer.
  struct Cell {
    std::atomic<uint64_t> seq{0};
    ContendedWait wait;
  };
  std::array<Cell, capacity> cells_;
  alignas(64) std::atomic<uint64_t> tail_{0};  // next position to claim
  alignas(64) uint64_t head_ = 0;              // next position to read (consumer only)
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace jvmsight
