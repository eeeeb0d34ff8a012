#include "collectors/threads/pinning_recorder.h"

#include <algorithm>

namespace jvmsight {

bool PinningRecorder::add_probe(const Probe& probe) {
  if (probe_count_ == max_probes) return false;
  probes_[probe_count_++] = probe;
  return true;
}

const PinningRecorder::Probe* PinningRecorder::probe_at(const void* method, int64_t location) const {
  // Filled before the event is enabled, never changed after: plain reads.
  for (size_t i = 0; i < probe_count_; ++i)
    if (probes_[i].method == method && probes_[i].location == location) return &probes_[i];
  return nullptr;
}

uint64_t PinningRecorder::on_probe(const Probe& probe, uint64_t stamp, uint64_t now_ns, EventPhase phase) {
  if (probe.action == Action::park_start) return PinStamp::start(now_ns);
  // A park that began before the probes were set has no start: not counted.
  if (!PinStamp::is_start(stamp)) return stamp;
  const uint64_t ns = PinStamp::since(stamp, now_ns);
  // Cycled, a start from an earlier on phase: its park straddled an off
  // phase, or its end fell in one and this stamp was left behind.
  if (!phase.usable(ns, now_ns)) return 0;
  const double seconds = static_cast<double>(ns) / 1e9;
  // Prometheus buckets are "less than or equal": a value on a bound belongs to it.
  auto it = std::lower_bound(upper_bounds.begin(), upper_bounds.end(), seconds);
  buckets_[static_cast<size_t>(it - upper_bounds.begin())].fetch_add(phase.weight(), std::memory_order_relaxed);
  sum_ns_.fetch_add(ns * phase.weight(), std::memory_order_relaxed);
  return 0;
}

HistogramValue PinningRecorder::histogram() const {
  HistogramValue v;
  v.upper_bounds.assign(upper_bounds.begin(), upper_bounds.end());
  // The count is the buckets' total, so the two always agree; the sum may
  // be a pinning ahead or behind (relaxed counters read without a lock).
  for (const auto& b : buckets_) {
    v.bucket_counts.push_back(b.load(std::memory_order_relaxed));
    v.count += v.bucket_counts.back();
  }
  v.sum = static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9;
  return v;
}

}  // namespace jvmsight
