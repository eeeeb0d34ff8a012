#include "collectors/lock_graph/lock_wait_watch.h"

#include <algorithm>
#include <unordered_map>

namespace jvmsight {
namespace {

// Newly stuck threads kept for the signal to report, at most.
constexpr size_t max_pending_stuck = 64;

double seconds_of(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

LockWaitWatch::LockWaitWatch(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, BlockedCountReader* counts,
                             std::chrono::milliseconds stuck_threshold)
    : lookup_(jvmti, jni, roster), counts_(counts), episodes_(stuck_threshold), probe_(jvmti, jni, lookup_) {
  ready_ = lookup_.resolve();
}

size_t LockWaitWatch::observed(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks,
                               WaitCoverage coverage) {
  if (!ready_) return 0;
  const auto now = Clock::now();
  std::vector<LockWait> waits;
  waits.reserve(waiters.size());
  for (const ScanWaiter& w : waiters) {
    if (w.lock >= locks.size() || locks[w.lock].object == nullptr) continue;  // monitor not named this scan
    const ScanLock& l = locks[w.lock];
    waits.push_back({w.id, w.virtual_thread, l.kind, l.hash, l.owner_id});
  }
  episodes_.observe(waits, coverage, now);
  count_waits(now);
  const size_t stops = probe_.probe(episodes_, waiters, locks, now);
  if (now >= next_sweep_) {
    probe_.sweep();
    next_sweep_ = now + sweep_interval;
  }
  note_stuck(waiters, locks, now);
  observed_once_ = true;
  return stops;
}

// The JVM's wait counts of the threads WaitEpisodes asks for (one
// getThreadInfo(ids, 0) for all of them: no stacks, no safepoint), as many
// as the budget allows.
void LockWaitWatch::count_waits(Clock::time_point now) {
  if (counts_ == nullptr) return;
  const Clock::duration left = count_budget_.left(now);
  if (left <= Clock::duration::zero()) return;
  size_t allowed = std::min(WaitEpisodes::max_counts_per_check, 2 * last_batch_);
  if (per_count_ > Clock::duration::zero())
    allowed = std::clamp<size_t>(static_cast<size_t>(left / per_count_), 1, allowed);
  const std::vector<ThreadKey> due = episodes_.due_for_count(now, allowed);
  if (due.empty()) return;
  last_batch_ = due.size();
  const auto start = Clock::now();
  auto counts = counts_->waits_of(std::vector<jlong>(due.begin(), due.end()));
  const Clock::duration cost = Clock::now() - start;
  count_budget_.spent(cost);
  per_count_ = cost / static_cast<Clock::rep>(due.size());
  if (counts) episodes_.counted(due, std::vector<int64_t>(counts->begin(), counts->end()), now);
}

void LockWaitWatch::note_stuck(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks,
                               Clock::time_point now) {
  stuck_monitor_ = stuck_juc_ = 0;
  stuck_max_seconds_ = 0;
  for (const auto& [thread, e] : episodes_.all()) {
    if (!episodes_.stuck(e, now)) continue;
    ++(e.wait.kind == LockKind::monitor ? stuck_monitor_ : stuck_juc_);
    stuck_max_seconds_ = std::max(stuck_max_seconds_, seconds_of(now - e.since));
  }
  StuckReports::Split fresh = reports_.split(episodes_.newly_stuck(now), now);
  if (fresh.described.empty() && fresh.counted.empty()) return;
  std::unordered_map<ThreadKey, jobject> lock_of;
  for (const ScanWaiter& w : waiters)
    if (w.lock < locks.size() && locks[w.lock].object != nullptr) lock_of[w.id] = locks[w.lock].object;
  auto lock_id = [&](const LockWait& wait) {
    LockId id{wait.lock_hash, "", wait.kind};
    auto lock = lock_of.find(wait.thread);
    if (lock != lock_of.end()) id.class_name = lookup_.class_name_of(lock->second);
    return id;
  };
  for (const WaitEpisode& e : fresh.described) {
    if (stuck_.size() >= max_pending_stuck) break;
    StuckThreadReport r;
    r.thread = e.wait.thread;
    r.lock = lock_id(e.wait);
    r.owner = e.wait.owner;
    r.seconds = seconds_of(now - e.since);
    stuck_.push_back(std::move(r));
  }
  for (const auto& [wait, count] : fresh.counted)
    if (stuck_counted_.size() < max_pending_stuck) stuck_counted_.emplace_back(lock_id(wait), count);
}

void LockWaitWatch::collect(MetricFamilies& out) {
  if (!observed_once_) return;  // the check is off or has not run: nothing measured
  const LockOrderGraph& graph = probe_.graph();
  add_sample(add_family(out, "jvmsight_lock_order_inversions"), static_cast<double>(graph.inversion_count()));
  add_sample(add_family(out, "jvmsight_lock_order_edges"), static_cast<double>(graph.edge_count()));
  add_sample(add_family(out, "jvmsight_lock_order_edges_forgotten_total"),
             static_cast<double>(graph.forgotten_edges()));
  MetricFamily& stuck = add_family(out, "jvmsight_threads_stuck");
  add_sample(stuck, static_cast<double>(stuck_monitor_), {{"kind", "monitor"}});
  add_sample(stuck, static_cast<double>(stuck_juc_), {{"kind", "juc"}});
  add_sample(add_family(out, "jvmsight_threads_stuck_max_seconds"), stuck_max_seconds_);
}

}  // namespace jvmsight
