#pragma once
// Which newly stuck threads are described one by one, and which are only
// counted. A description costs a ThreadMXBean dump of two threads (a
// safepoint) and a screenful of stderr; a pileup of thousands behind one
// held lock gets stuck all at once, and its first waiter's report already
// names the lock, its owner and the owner's stack. So: the first stuck
// thread of a lock is described, at most max_described a check; the others
// on that lock are counted, one line per lock, and nothing more is said of
// that lock for quiet_time (the gauge counts them all). Pure: no JVM.
#include <chrono>
#include <map>
#include <utility>
#include <vector>

#include "collectors/lock_graph/wait_episodes.h"

namespace jvmsight {

class StuckReports {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t max_described = 4;
  static constexpr std::chrono::minutes quiet_time{10};
  static constexpr size_t max_locks_remembered = 1024;

  struct Split {
    std::vector<WaitEpisode> described;
    std::vector<std::pair<LockWait, size_t>> counted;  // a waiter of each lock, and how many
  };
  // newly: the episodes WaitEpisodes::newly_stuck gave at this check.
  Split split(std::vector<WaitEpisode> newly, Clock::time_point now);

 private:
  using Lock = std::pair<LockKind, int32_t>;
  // When each lock was last described, and last counted.
  std::map<Lock, Clock::time_point> described_, counted_;
};

}  // namespace jvmsight
