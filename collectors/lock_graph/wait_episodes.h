#pragma once
// Who has waited for which lock, and since when: the background deadlock
// check's waits (threads blocked entering a monitor, or parked on a j.u.c.
// lock that has an owner), followed from one check to the next. The
// stuck-thread count and the lock-order probe share this view.
//
// A thread seen waiting for the same lock at two checks may have got it and
// waited again in between (a contention storm looks like that at every
// check). So for platform threads the JVM's own count of the thread's
// waits (ThreadInfo blocked + waited counts: each contended monitor entry,
// each park or Object.wait adds one) is read at first sight, once the wait
// reaches the threshold, and every threshold after: a count that moved
// restarts the episode. A thread is stuck once one unchanged count spans
// the threshold. (Reading more often would find a thread that got stuck on
// a lock it had been contending for before twice the threshold, at the
// price of reading every waiting thread more often: a pileup of 10,000 at
// rest pays 10,000 reads a period.) Virtual threads have no such count (ThreadMXBean
// does not know them): their waits are followed from walk to walk only.
//
// Idle threads never appear here: Object.wait, sleep, a worker parked on a
// queue's Condition or a pool's own blocker, a latch or a semaphore (no
// owner) are not waits the check follows, and a lock's holder waits for
// nothing. Pure: no JVM.
#include <chrono>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/deadlock.h"

namespace jvmsight {

// One thread waiting for one lock, as one check saw it.
struct LockWait {
  ThreadKey thread = 0;
  bool virtual_thread = false;
  LockKind kind = LockKind::monitor;
  int32_t lock_hash = 0;  // identity hash: the same lock at the next check
  std::optional<ThreadKey> owner;
  bool same_lock(const LockWait& o) const { return kind == o.kind && lock_hash == o.lock_hash; }
};

// What a check read. Waits it did not read stand as they were.
struct WaitCoverage {
  bool monitors = true;         // false: monitor waits reused (nothing blocked anew since)
  bool virtual_threads = true;  // false: virtual threads not walked this check
};

struct WaitEpisode {
  using Clock = std::chrono::steady_clock;
  LockWait wait;
  Clock::time_point since;       // waiting for this lock since then, at the latest
  std::optional<int64_t> count;  // the JVM's wait count, unchanged since `since` (platform threads)
  Clock::time_point counted_at;  // when it was last read
  bool examined = false;         // the lock-order probe has looked at this wait
  bool reported = false;         // reported stuck
  uint64_t seen = 0;             // the last observe() that saw it
};

class WaitEpisodes {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t max_counts_per_check = 256;

  // threshold: stuck_threshold_ms (counts read at least a second apart).
  explicit WaitEpisodes(Clock::duration threshold);

  // One check's waits.
  void observe(const std::vector<LockWait>& waits, WaitCoverage coverage, Clock::time_point now);
  // The platform threads whose wait count to read now: those crossing the
  // threshold first, then those never counted, then the longest uncounted;
  // at most max (and max_counts_per_check).
  std::vector<ThreadKey> due_for_count(Clock::time_point now, size_t max = max_counts_per_check) const;
  // Their counts, in the same order (negative: unknown, e.g. the thread ended).
  void counted(const std::vector<ThreadKey>& ids, const std::vector<int64_t>& counts, Clock::time_point now);

  bool stuck(const WaitEpisode& e, Clock::time_point now) const;
  // Read by the last check (not a wait standing from an earlier one): its
  // thread is among that scan's waiters.
  bool at_hand(const WaitEpisode& e) const { return e.seen == observed_; }
  // Stuck episodes not reported yet (by thread id), marked reported now.
  std::vector<WaitEpisode> newly_stuck(Clock::time_point now);

  using Map = std::unordered_map<ThreadKey, WaitEpisode>;
  Map& all() { return episodes_; }
  const Map& all() const { return episodes_; }
  Clock::duration threshold() const { return threshold_; }

 private:
  Clock::duration threshold_;
  Clock::duration recount_;
  // Updated in place: a pileup's thousands of waits stay the same from one
  // check to the next, and a check should not reallocate them.
  Map episodes_;
  uint64_t observed_ = 0;
};

}  // namespace jvmsight
