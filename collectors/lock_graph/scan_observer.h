#pragma once
// The seam through which a background deadlock check's scan shows what it
// saw to the lock-order probe and the stuck-thread count (LockWaitWatch),
// while the scan's JVM references are still live: every thread waiting for
// a lock, the lock, and its owner. Called on the agent thread, once per
// background scan (not for the scrape-time full scans).
#include <cstddef>
#include <vector>

#include "collectors/lock_graph/scan_edges.h"
#include "collectors/lock_graph/wait_episodes.h"

namespace jvmsight {

class ScanObserver {
 public:
  virtual ~ScanObserver() = default;
  // waiters: each with a lock (into locks) whose hash, kind and owner are
  // known. coverage: which waits the scan did not read this time. Returns
  // the thread stops (handshakes, VM operations) it asked of the JVM.
  virtual size_t observed(const std::vector<ScanWaiter>& waiters, const std::vector<ScanLock>& locks,
                          WaitCoverage coverage) = 0;
};

}  // namespace jvmsight
