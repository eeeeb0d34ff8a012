#pragma once
// Scrape-time view of who waits for whom: threads parked on j.u.c. locks per
// synchronizer class, and how many threads queue behind each lock holder.
// Cardinality: holders are the top `max_holders` by queue length (a gauge,
// so series may come and go between scrapes); parked classes are the top K
// (the lock_classes option), the rest summed as "other". Where the holder
// is and what it runs is in /threads (its stack), not in labels.
// The scan behind them walks every thread and asks the JVM once per distinct
// lock: milliseconds at 10,000 threads in a pileup. So the agent thread's
// periodic task redoes it in the background while someone collects, and a
// collection serves the latest result, with its age (BackgroundRefresh).
#include <optional>

#include "collectors/background_refresh.h"
#include "collectors/collector.h"
#include "collectors/lock_graph/lock_graph_source.h"

namespace jvmsight {

// The queue counts from a wait-for graph (for sources that give no LockQueues).
LockQueues queues_of(const WaitForGraph& graph);

class LockQueueCollector : public Collector {
 public:
  static constexpr size_t max_holders = 10;

  LockQueueCollector(LockGraphSource& source, size_t lock_classes) : source_(source), lock_classes_(lock_classes) {}
  void collect(MetricFamilies& out) override;
  // Periodic, on the agent thread: scans again when due.
  void refresh();

 private:
  void scan_now();

  LockGraphSource& source_;
  const size_t lock_classes_;
  BackgroundRefresh refresh_;
  std::optional<LockScan> latest_;  // of the last scan that succeeded
};

}  // namespace jvmsight
