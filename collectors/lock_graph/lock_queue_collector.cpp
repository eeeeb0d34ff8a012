#include "collectors/lock_graph/lock_queue_collector.h"

#include <algorithm>
#include <vector>

namespace jvmsight {

LockQueues queues_of(const WaitForGraph& graph) {
  LockQueues q;
  for (const auto& [waiter, e] : graph.edges()) {
    (e.lock.kind == LockKind::monitor ? q.monitor_waiters : q.juc_waiters)++;
    if (e.owner && *e.owner != waiter) ++q.queued[{*e.owner, e.owner_name, e.lock.class_name}];
  }
  return q;
}

void LockQueueCollector::scan_now() {
  const auto cpu_start = BackgroundRefresh::thread_cpu();
  auto scan = source_.scan(ScanDepth::full);
  // A failed scan keeps the last result: it ages, and past max_age() it is
  // no longer served.
  if (!scan) return;
  latest_ = std::move(scan);
  refresh_.done(BackgroundRefresh::Clock::now(), BackgroundRefresh::thread_cpu() - cpu_start);
}

void LockQueueCollector::refresh() {
  // A source that stops the world (ThreadMXBean) is asked only when a
  // collection needs it, not every second.
  if (!source_.stops_the_world() && refresh_.due(BackgroundRefresh::Clock::now())) scan_now();
}

void LockQueueCollector::collect(MetricFamilies& out) {
  auto now = BackgroundRefresh::Clock::now();
  refresh_.demanded(now);
  if (refresh_.stale(now)) scan_now();
  now = BackgroundRefresh::Clock::now();
  if (!latest_ || refresh_.stale(now)) return;
  refresh_.add_families(out, "jvmsight_lock_queue", now);
  const LockScan* scan = &*latest_;

  auto& parked = add_family(out, "jvmsight_juc_parked_threads");
  std::vector<std::pair<std::string, size_t>> classes(scan->juc_parked.begin(), scan->juc_parked.end());
  std::sort(classes.begin(), classes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  size_t other = 0;
  for (size_t i = 0; i < classes.size(); ++i) {
    if (i < lock_classes_)
      add_sample(parked, static_cast<double>(classes[i].second), {{"lock_class", classes[i].first}});
    else
      other += classes[i].second;
  }
  if (other > 0) add_sample(parked, static_cast<double>(other), {{"lock_class", "other"}});

  const LockQueues q = scan->queues ? *scan->queues : queues_of(scan->graph);
  auto& waiting = add_family(out, "jvmsight_lock_waiting_threads");
  add_sample(waiting, static_cast<double>(q.monitor_waiters), {{"kind", "monitor"}});
  add_sample(waiting, static_cast<double>(q.juc_waiters), {{"kind", "juc"}});

  std::vector<std::pair<LockQueues::Holder, size_t>> ranked(q.queued.begin(), q.queued.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  auto& queue = add_family(out, "jvmsight_lock_queue_length");
  for (size_t i = 0; i < ranked.size() && i < max_holders; ++i) {
    const auto& h = ranked[i].first;
    add_sample(queue, static_cast<double>(ranked[i].second),
               {{"holder", h.name}, {"holder_id", std::to_string(h.id)}, {"lock_class", h.lock_class}});
  }
}

}  // namespace jvmsight
