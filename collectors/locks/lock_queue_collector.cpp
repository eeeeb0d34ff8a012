#include "collectors/locks/lock_queue_collector.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace jvmsight {

void LockQueueCollector::collect(MetricFamilies& out) {
  auto scan = source_.scan(ScanDepth::full);
  if (!scan) return;

  auto& parked = add_family(out, "jvmsight_juc_parked_threads", MetricType::gauge,
                            "Platform threads parked on a java.util.concurrent lock (an AbstractOwnableSynchronizer: "
                            "ReentrantLock, ReentrantReadWriteLock, Semaphore...), by synchronizer class");
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

  size_t monitor = 0, juc = 0;
  // (holder id, holder name, lock class) -> queued threads
  std::map<std::tuple<ThreadKey, std::string, std::string>, size_t> queues;
  for (const auto& [waiter, e] : scan->graph.edges()) {
    (e.lock.kind == LockKind::monitor ? monitor : juc)++;
    if (e.owner && *e.owner != waiter) ++queues[{*e.owner, e.owner_name, e.lock.class_name}];
  }
  auto& waiting = add_family(out, "jvmsight_lock_waiting_threads", MetricType::gauge,
                             "Platform threads waiting for a lock: blocked entering a monitor, or parked on a "
                             "java.util.concurrent lock");
  add_sample(waiting, static_cast<double>(monitor), {{"kind", "monitor"}});
  add_sample(waiting, static_cast<double>(juc), {{"kind", "juc"}});

  std::vector<std::pair<std::tuple<ThreadKey, std::string, std::string>, size_t>> ranked(queues.begin(), queues.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  auto& queue = add_family(out, "jvmsight_lock_queue_length", MetricType::gauge,
                           "Threads waiting for a lock this thread holds, for the top holders by queue length");
  for (size_t i = 0; i < ranked.size() && i < max_holders; ++i) {
    const auto& [id, name, cls] = ranked[i].first;
    add_sample(queue, static_cast<double>(ranked[i].second),
               {{"holder", name}, {"holder_id", std::to_string(id)}, {"lock_class", cls}});
  }
}

}  // namespace jvmsight
