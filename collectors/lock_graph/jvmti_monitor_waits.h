#pragma once
// Which monitor each blocked thread of a scan waits for, and who owns it,
// from JVM TI. GetCurrentContendedMonitor is a handshake with one thread
// (0.1-1 ms measured at 10,000 threads), so it is asked of one thread per
// distinct monitor only: GetObjectMonitorUsage of that monitor (one VM
// operation) names its owner and every thread queued to enter it, which are
// then resolved without a call of their own. Agent thread only.
#include <jni.h>
#include <jvmti.h>

#include <cstddef>
#include <unordered_map>
#include <vector>

#include "collectors/lock_graph/jvm_lock_lookup.h"
#include "collectors/lock_graph/scan_edges.h"

namespace jvmsight {

class JvmtiMonitorWaits {
 public:
  // GetObjectMonitorUsage (a VM operation each) for at most this many
  // distinct monitors per scan.
  static constexpr size_t max_monitor_usage_queries = 32;
  // A full scan (scrape time) makes at most this many per-thread handshakes
  // beyond those: its cost stays bounded whatever the threads do.
  static constexpr size_t max_scrape_handshakes = 64;

  // monitor_usage: can_get_monitor_info (owners that are not themselves waiting).
  JvmtiMonitorWaits(jvmtiEnv* jvmti, JNIEnv* jni, JvmLockLookup& lookup, bool monitor_usage)
      : jvmti_(jvmti), jni_(jni), lookup_(lookup), monitor_usage_(monitor_usage) {}

  // Gives each waiter without a lock its monitor (drops those that got it
  // meanwhile), and each monitor its owner where it can. Returns the thread
  // stops (handshakes, VM operations) it asked of the JVM.
  size_t resolve(std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks, bool full);

 private:
  using Pending = std::unordered_map<ThreadKey, size_t>;  // waiter id -> index, monitor not known yet
  size_t resolve_monitors(std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks, bool full);
  size_t usage_of(jobject monitor, const Pending& pending, std::vector<ScanWaiter>& waiters,
                  std::vector<ScanLock>& locks);
  size_t same_monitor(jobject monitor, std::vector<ScanLock>& locks);
  size_t find_monitor_owners(const std::vector<ScanWaiter>& waiters, std::vector<ScanLock>& locks, bool full);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  JvmLockLookup& lookup_;
  bool monitor_usage_;
};

}  // namespace jvmsight
