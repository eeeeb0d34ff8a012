#pragma once
// The JVM's own count of contended monitor entries: HotSpot counts, for
// every platform thread, each time it blocked to enter a monitor
// (ThreadInfo.getBlockedCount), with or without JVM TI events. Read through
// ThreadMXBean.getThreadInfo(ids, 0) (no stacks: no safepoint; measured
// 7-10 ms at 10,000 threads). Agent thread only.
//
// Why not the hsperfdata counter sun.rt._sync_ContendedLockAttempts: JDK 25
// no longer has it.
#include <jni.h>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/lock_graph/blocked_progress.h"
#include "collectors/threads/thread_mx_bean.h"

namespace jvmsight {

// Both the contention collector's exact totals (ContendedEntryCount) and
// the deadlock check's per-thread progress (BlockedCountReader).
class JvmBlockedCounts : public ContendedEntryCount, public BlockedCountReader {
 public:
  JvmBlockedCounts(JNIEnv* jni, ThreadMxBean& mx) : jni_(jni), mx_(mx) {}

  // Contended entries since the previous call, summed over the live
  // platform threads (the first call counts from thread start). A thread
  // that ended in between takes its last entries with it. nullopt on failure.
  std::optional<uint64_t> since_last() override;
  // The blocked counts of these threads now, in their order (-1 for a
  // thread that ended); nullopt on failure. Costs about what since_last
  // does per thread, for these threads only.
  std::optional<std::vector<jlong>> of(const std::vector<jlong>& ids) override;
  std::optional<std::vector<jlong>> waits_of(const std::vector<jlong>& ids) override;

 private:
  bool resolve();
  // (id, blocked count, or with waits: blocked + waited count) of each
  // thread in ids that is still alive.
  std::optional<std::vector<std::pair<jlong, jlong>>> read(jlongArray ids, bool with_waits = false);
  std::optional<std::vector<jlong>> counts_of(const std::vector<jlong>& ids, bool with_waits);

  JNIEnv* jni_;
  ThreadMxBean& mx_;
  bool tried_ = false, ready_ = false;
  jmethodID all_ids_ = nullptr, infos_ = nullptr, id_ = nullptr, blocked_ = nullptr, waited_ = nullptr;
  std::unordered_map<jlong, jlong> last_;  // thread id -> blocked count at the previous call
};

}  // namespace jvmsight
