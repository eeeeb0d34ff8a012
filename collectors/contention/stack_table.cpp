#include "collectors/contention/stack_table.h"

#include <sys/mman.h>

#include <cstring>
#include <new>
#include <type_traits>

namespace jvmsight {
namespace {

constexpr size_t entry_bytes(size_t entry) { return size_t{StackTable::capacity} * entry; }

void* zero_pages(size_t bytes) {
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  return memory;
}

uint64_t mix(uint64_t x) {  // splitmix64's finalizer
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

void StackTable::Unmap::operator()(void* memory) const { munmap(memory, bytes); }

StackTable::StackTable() {
  static_assert(std::is_trivially_default_constructible_v<std::atomic<uint64_t>>);
  // The kernel's zero pages are every entry's starting state (all fields 0).
  const size_t entries = entry_bytes(sizeof(Entry));
  const size_t frames = frame_capacity * sizeof(jvmtiFrameInfo);
  entries_ = std::unique_ptr<Entry, Unmap>(static_cast<Entry*>(zero_pages(entries)), Unmap{entries});
  frames_ = std::unique_ptr<jvmtiFrameInfo, Unmap>(static_cast<jvmtiFrameInfo*>(zero_pages(frames)), Unmap{frames});
}

uint64_t StackTable::hash(const jvmtiFrameInfo* frames, uint32_t depth) {
  uint64_t h = depth;
  for (uint32_t i = 0; i < depth; ++i) {
    h = mix(h ^ reinterpret_cast<uintptr_t>(frames[i].method));
    h = mix(h ^ static_cast<uint64_t>(frames[i].location));
  }
  return h == 0 ? 1 : h;
}

uint32_t StackTable::intern(const jvmtiFrameInfo* frames, uint32_t depth) {
  // A wait with no Java frame (a thread past its run() that contends, in
  // the JVM's exit path, for its Thread object's monitor with a joiner) is
  // one frame of no method; FrameNames names it.
  static const jvmtiFrameInfo no_java_frames{nullptr, -1};
  if (depth == 0) {
    frames = &no_java_frames;
    depth = 1;
  }
  if (depth > max_depth) depth = max_depth;
  const uint64_t h = hash(frames, depth);
  Entry* entries = entries_.get();
  for (uint32_t probe = 0; probe < max_probe; ++probe) {
    const uint32_t index = (static_cast<uint32_t>(h) + probe) & (capacity - 1);
    Entry& e = entries[index];
    uint64_t key = e.hash.load(std::memory_order_acquire);
    if (key == 0) {
      if (e.hash.compare_exchange_strong(key, h, std::memory_order_acq_rel)) {
        // At most capacity stacks of at most max_depth: the arena never overflows.
        const uint64_t at = frames_used_.fetch_add(depth, std::memory_order_relaxed);
        e.frames_at = static_cast<uint32_t>(at);
        std::memcpy(frames_.get() + at, frames, depth * sizeof(jvmtiFrameInfo));
        e.depth.store(depth, std::memory_order_release);
        kept_.fetch_add(1, std::memory_order_relaxed);
        return index + first_entry;
      }
    }
    if (key == h) return index + first_entry;
  }
  dropped_.fetch_add(1, std::memory_order_relaxed);
  return other;
}

void StackTable::add(uint32_t id, uint64_t weight, uint64_t delay_ns) {
  if (id == no_stack) return;
  Entry& e = id == other ? other_ : entries_.get()[id - first_entry];
  e.pending_weight.fetch_add(weight, std::memory_order_relaxed);
  e.pending_delay_ns.fetch_add(delay_ns, std::memory_order_relaxed);
}

void StackTable::fold(Entry& e, double factor) {
  // Most entries have nothing pending: read before writing, so the fold
  // leaves their lines to the callbacks. A callback adding between the
  // exchange and the add lands in the next fold: nothing is lost or
  // counted twice.
  if (e.pending_weight.load(std::memory_order_relaxed) == 0 && e.pending_delay_ns.load(std::memory_order_relaxed) == 0)
    return;
  const auto scale = [factor](uint64_t v) { return static_cast<uint64_t>(static_cast<double>(v) * factor); };
  e.weight.fetch_add(scale(e.pending_weight.exchange(0, std::memory_order_relaxed)), std::memory_order_relaxed);
  e.delay_ns.fetch_add(scale(e.pending_delay_ns.exchange(0, std::memory_order_relaxed)), std::memory_order_relaxed);
}

void StackTable::fold(double factor) {
  Entry* entries = entries_.get();
  // Claimed entries: values may arrive before a claimer's frames are written.
  for (uint32_t i = 0; i < capacity; ++i)
    if (entries[i].hash.load(std::memory_order_relaxed) != 0) fold(entries[i], factor);
  fold(other_, factor);
}

}  // namespace jvmsight
