#pragma once
// The live platform threads grouped by pool (thread_pool_name.h): how many
// are in each Thread.State, and the CPU time each pool has used. The
// bookkeeping only, pure: ThreadPoolCollector feeds it what the JVM says
// (names, identity hashes, CPU readings, ThreadEnd's records) and the
// scrape's walk its status words. Agent thread only.
//
// A pool's CPU is that of its listed threads plus what the threads that
// left it had used, so it never goes back: a thread that ends (or is
// renamed into another pool) leaves its CPU so far in the pool's kept
// total. Past the cap, pools share pool="other"; which pools get their own
// label is decided by CPU at each settle(): free labels go to the busiest
// pools, and a labelled pool yields its label to one that used 25% more
// (the margin keeps two similar pools from trading it back and forth). A
// pool's series starts at its whole CPU when labelled; "other" counts the
// increments of the unlabelled ones while unlabelled, so every series
// only grows (the sum over series counts a promoted pool's past twice).
#include <jni.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/metric_catalogue.h"

namespace jvmsight {

class ThreadPools {
 public:
  static constexpr uint32_t no_mark = UINT32_MAX;
  // The states a listed (alive) thread can be in, as samples.
  static constexpr size_t live_state_count = 4;
  static constexpr const char* other = "other";

  // cap: how many pools get their own label.
  explicit ThreadPools(size_t cap) : cap_(cap) {}

  // A thread newly listed: its pool, its java.lang.Thread's identity hash
  // and id. Returns the mark that names it from now on.
  uint32_t add_thread(std::string_view pool, int32_t hash, int64_t tid);
  // Its name read again: if its pool changed, it moves, and what it used
  // so far stays with the old pool.
  void rename(uint32_t mark, std::string_view pool);
  // A reading of the thread's CPU time since it started (ns); negative:
  // unknown (the thread ended meanwhile).
  void read_cpu(uint32_t mark, int64_t cpu_ns);
  // ThreadEnd's record: the ending thread's own last CPU time. Matched by
  // identity hash among the listed threads; ignored when none or several
  // have it (the last reading then stands).
  void thread_ended(int32_t hash, int64_t cpu_ns);
  // The thread left the list: what it used stays in its pool's total.
  void remove_thread(uint32_t mark);
  int64_t tid_of(uint32_t mark) const { return threads_[mark].tid; }
  // The mark still names the listed thread of this id.
  bool names(uint32_t mark, int64_t tid) const {
    return mark < threads_.size() && threads_[mark].listed && threads_[mark].tid == tid;
  }

  // After a round of readings: each pool's total, which pools have a label
  // of their own, the others' increments to "other"; a pool without threads
  // at two settles in a row is forgotten (the first publishes its last CPU).
  void settle();

  // The scrape's walk over every listed thread's status word.
  void begin_walk();
  void count(uint32_t mark, jint status) {
    if (status != last_status_) {
      last_status_ = status;
      last_state_ = live_state_of(status);
    }
    if (mark >= threads_.size() || last_state_ >= live_state_count) return;
    const uint32_t pool = threads_[mark].pool;
    if (pool >= counts_.size()) counts_.resize(pools_.size());  // a pool that joined during the walk's listing
    ++counts_[pool][last_state_];
  }
  void end_walk() { walked_ = true; }

  // jvmsight_thread_pool_threads (from the last walk: a sample per pool and
  // state that has threads) and jvmsight_thread_pool_cpu_seconds_total (as
  // of the last settle).
  void add_families(MetricFamilies& out) const;

  size_t pools() const { return pool_ids_.size(); }

 private:
  struct Thread {
    uint32_t pool = 0;
    int32_t hash = 0;
    int64_t tid = 0;
    int64_t base_ns = 0;  // its CPU when it joined the pool (0: when it started)
    int64_t cpu_ns = 0;   // the latest it is known to have used
    bool listed = false;
  };
  struct Pool {
    std::string name;
    uint32_t threads = 0;
    int64_t kept_ns = 0;       // of threads that left it
    int64_t cpu_ns = 0;        // its total at the last settle
    int64_t published_ns = 0;  // its total when last published (own label) or added to "other"
    int empty_settles = 0;
    bool labelled = false;
    bool settled = false;
  };
  static size_t live_state_of(jint status);
  uint32_t pool_named(std::string_view name);
  void drop_empty_pools();
  void assign_labels();

  const size_t cap_;
  std::vector<Thread> threads_;
  std::vector<uint32_t> free_threads_;
  std::vector<Pool> pools_;
  std::vector<uint32_t> free_pools_;
  std::unordered_map<std::string, uint32_t> pool_ids_;
  std::unordered_multimap<int32_t, uint32_t> by_hash_;
  size_t labelled_ = 0;
  int64_t other_ns_ = 0;
  bool overflowed_ = false;  // some pool went without a label: "other" is served from then on
  std::vector<std::array<uint32_t, live_state_count>> counts_;  // by pool id, from the last walk
  bool walked_ = false;
  jint last_status_ = -1;
  size_t last_state_ = live_state_count;
};

}  // namespace jvmsight
