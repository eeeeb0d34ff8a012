#include "collectors/contention/monitor_contention_recorder.h"

#include <sys/mman.h>

#include <new>

namespace jvmsight {

void WaitHistogram::record(uint64_t ns, uint64_t weight) {
  // Bounds in ns, compared as integers: no floating point on the hot path.
  static constexpr std::array<uint64_t, wait_bucket_count> bounds_ns = {
      10'000,     100'000,     500'000,     1'000'000,     5'000'000,     10'000'000,
      50'000'000, 100'000'000, 500'000'000, 1'000'000'000, 5'000'000'000, 10'000'000'000};
  size_t b = 0;
  while (b < wait_bucket_count && ns > bounds_ns[b]) ++b;
  // Two atomic adds per event (the count is the sum of the buckets): hot
  // locks put every contending thread on the same cache lines.
  buckets[b].fetch_add(weight, std::memory_order_relaxed);
  sum_ns.fetch_add(ns * weight, std::memory_order_relaxed);
}

void WaitTotals::add(const WaitTotals& o) {
  count += o.count;
  sum_ns += o.sum_ns;
  for (size_t i = 0; i < buckets.size(); ++i) buckets[i] += o.buckets[i];
}

namespace {
constexpr size_t table_bytes = MonitorContentionRecorder::slot_count * sizeof(WaitHistogram);

WaitHistogram* zero_page_table() {
  void* memory = mmap(nullptr, table_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  auto* table = static_cast<WaitHistogram*>(memory);
  // Trivial default construction writes nothing: every entry starts as the
  // zeros the kernel maps, and the pages stay unallocated until written.
  for (size_t i = 0; i < MonitorContentionRecorder::slot_count; ++i) new (&table[i]) WaitHistogram;
  return table;
}
}  // namespace

void MonitorContentionRecorder::Unmap::operator()(WaitHistogram* table) const { munmap(table, table_bytes); }

MonitorContentionRecorder::MonitorContentionRecorder()
    : keys_(new std::atomic<int32_t>[slot_count]()), slots_(zero_page_table()) {}

MonitorContentionRecorder::SlotRef MonitorContentionRecorder::slot_of(int32_t hash) {
  if (hash != 0) {
    // Open addressing with a bounded probe: a claimed slot keeps its key for
    // good, so a reader never sees a key change under it.
    uint32_t h = static_cast<uint32_t>(hash) * 0x9E3779B1u;
    for (size_t probe = 0; probe < max_probe; ++probe) {
      uint32_t index = (h + probe) & (slot_count - 1);
      std::atomic<int32_t>& slot_key = keys_[index];
      int32_t key = slot_key.load(std::memory_order_acquire);
      if (key == 0) {
        int32_t expected = 0;
        if (slot_key.compare_exchange_strong(expected, hash, std::memory_order_acq_rel)) return {index, true};
        key = expected;
      }
      if (key == hash) return {index, false};
    }
  }
  return {overflow_slot, false};
}

void MonitorContentionRecorder::record_contended(uint32_t slot, uint64_t wait_ns) {
  if (slot < slot_count) {
    slots_[slot].record(wait_ns);
    return;
  }
  overflowed_.fetch_add(1, std::memory_order_relaxed);
  overflow_.record(wait_ns);
}

// Memory ordering (docs/ARM64.md). An Entered callback of the new phase must
// read the new phase start, or it would take an Enter stamp left from an
// earlier phase and time the whole off phase as a wait. What tells the
// callback thread the phase began is no atomic of ours: it is the JVM's own
// event-enabled flag, which the JVM writes after this store (from
// SetEventNotificationMode) and reads without acquire before calling us. On
// x86 stores stay in order and so do loads; on ARM neither does, so both
// sides need a barrier: the release fence here keeps this store before the
// JVM's later flag store (DMB ISH), and the acquire fence in stamp_usable
// keeps the JVM's earlier flag load before our load of the phase start
// (DMB ISHLD). Neither costs an instruction on x86.
void MonitorContentionRecorder::start_phase(uint64_t now_ns) {
  phase_start_ns_.store(now_ns, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
}

// The same fences as start_phase and stamp_usable, for the same reason.
void MonitorContentionRecorder::start_others(uint64_t now_ns, uint32_t shift) {
  others_shift_.store(shift, std::memory_order_relaxed);
  others_since_ns_.store(now_ns, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
}

EventPhase MonitorContentionRecorder::others_phase() const {
  std::atomic_thread_fence(std::memory_order_acquire);
  return {others_since_ns_.load(std::memory_order_relaxed), others_shift_.load(std::memory_order_relaxed)};
}

bool MonitorContentionRecorder::stamp_usable(uint64_t enter_stamp, uint64_t now_ns) const {
  std::atomic_thread_fence(std::memory_order_acquire);
  const uint64_t phase_start = phase_start_ns_.load(std::memory_order_relaxed);
  return EventPhase::began_since(phase_start, ThreadStamp::since(enter_stamp, now_ns), now_ns);
}

WaitTotals MonitorContentionRecorder::take(WaitHistogram& h) {
  // An event racing the drain may have its bucket here and its time in the
  // next drain: the sum is off by the waits in flight for a moment (on ARM
  // their two adds may land in either order), never lost.
  WaitTotals t;
  for (size_t i = 0; i < t.buckets.size(); ++i) t.buckets[i] = h.buckets[i].exchange(0, std::memory_order_relaxed);
  t.sum_ns = h.sum_ns.exchange(0, std::memory_order_relaxed);
  for (auto b : t.buckets) t.count += b;
  return t;
}

WaitTotals MonitorContentionRecorder::waits() const {
  WaitTotals t;
  for (size_t i = 0; i < t.buckets.size(); ++i) t.buckets[i] = waits_.buckets[i].load(std::memory_order_relaxed);
  t.sum_ns = waits_.sum_ns.load(std::memory_order_relaxed);
  t.count = 0;
  for (auto b : t.buckets) t.count += b;
  return t;
}

}  // namespace jvmsight
