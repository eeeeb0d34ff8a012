#include "collectors/contention/contended_wait_ring.h"

namespace jvmsight {

static_assert((ContendedWaitRing::capacity & (ContendedWaitRing::capacity - 1)) == 0, "a power of two");

ContendedWaitRing::ContendedWaitRing() {
  for (size_t i = 0; i < capacity; ++i) cells_[i].seq.store(i, std::memory_order_relaxed);
}

bool ContendedWaitRing::push(const ContendedWait& w) {
  uint64_t pos = tail_.load(std::memory_order_relaxed);
  for (;;) {
    Cell& cell = cells_[pos & (capacity - 1)];
    uint64_t seq = cell.seq.load(std::memory_order_acquire);
    auto diff = static_cast<int64_t>(seq - pos);
    if (diff == 0) {
      if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) {
        cell.wait = w;
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

bool ContendedWaitRing::pop(ContendedWait& out) {
  Cell& cell = cells_[head_ & (capacity - 1)];
  if (cell.seq.load(std::memory_order_acquire) != head_ + 1) return false;
  out = cell.wait;
  cell.seq.store(head_ + capacity, std::memory_order_release);
  ++head_;
  return true;
}

}  // namespace jvmsight
