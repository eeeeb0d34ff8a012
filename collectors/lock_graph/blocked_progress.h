#pragma once
// Which blocked threads made no progress between two deadlock checks. A
// deadlocked thread stays in one contended monitor entry forever, so the
// JVM's count of its contended entries (ThreadInfo.getBlockedCount) stops;
// a thread in a contention storm, blocked at one check, has entered the
// monitor again and again by the next. The check reads monitor edges (a
// handshake, a VM operation) only for the first kind while the blocked set
// churns.
#include <jni.h>

#include <optional>
#include <vector>

namespace jvmsight {

// The JVM's count of each thread's contended monitor entries
// (JvmBlockedCounts; scripted in unit tests).
class BlockedCountReader {
 public:
  virtual ~BlockedCountReader() = default;
  // The counts of these threads now, in their order (BlockedProgress::unknown
  // for a thread that ended); nullopt on failure.
  virtual std::optional<std::vector<jlong>> of(const std::vector<jlong>& ids) = 0;
  // Every wait of these threads so far: contended entries plus Object.wait
  // calls and parks (ThreadInfo blocked + waited counts), BlockedProgress::unknown
  // for a thread that ended; nullopt on failure or where not read.
  virtual std::optional<std::vector<jlong>> waits_of(const std::vector<jlong>& ids) {
    (void)ids;
    return std::nullopt;
  }
};

class BlockedProgress {
 public:
  static constexpr jlong unknown = -1;

  // The blocked threads now (ids) with their blocked counts (unknown where
  // the JVM did not say). Per thread: true if it was blocked at the
  // previous call with the same count, or its count is unknown (it might
  // be stuck). Remembers this call's threads for the next.
  std::vector<bool> unmoved(const std::vector<jlong>& ids, const std::vector<jlong>& counts);
  // Nothing to compare with at the next call.
  void forget() { last_.clear(); }

 private:
  std::vector<std::pair<jlong, jlong>> last_;  // (id, count), sorted by id
};

}  // namespace jvmsight
