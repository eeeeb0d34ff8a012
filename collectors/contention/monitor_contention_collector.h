#pragma once
// jvmsight_monitor_contended_* and jvmsight_monitor_wait_* from the event
// recorder, labelled by lock class with bounded cardinality. Agent thread.
//
// Callbacks only know a lock's identity hash (and tag the object on its first
// contention); the class is found on the agent thread from the tag
// (TaggedClassResolver: JVM TI GetObjectsWithTags), or learned when the deadlock
// check sees a thread blocked on it (learn_classes). A hash still unknown
// after unresolved_after (the object died, or tagging was unavailable)
// counts as lock_class="unresolved".
// Exact totals while duty cycling (ContentionDutyCycle): the events then see
// only part of the entries, so what they gather waits in a window, and each
// flush scales it to the JVM's own count of contended entries since the
// previous flush (ContendedEntryCount: ThreadInfo.getBlockedCount). Per class, the
// counts then add up to the JVM's total, and the shares and wait times are
// the sampled ones.
// Cardinality: the first K classes to show up (ranked by wait time within
// one collection) keep their own label for good; later classes count as
// lock_class="other". No series ever moves, so every counter stays monotonic.
#include <array>
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "collectors/collector.h"
#include "collectors/contention/monitor_contention_recorder.h"
#include "collectors/lock_graph/lock_class_sink.h"

namespace jvmsight {

// What the collector asks of the JVM, through named seams its unit tests
// script: TaggedLockClasses (tagged_lock_classes.h) and JvmBlockedCounts
// (jvm_blocked_counts.h) are the JVM's answers.
class TaggedClassResolver {
 public:
  virtual ~TaggedClassResolver() = default;
  // Classes of tagged lock objects by identity hash; those not found are left out.
  virtual std::map<int32_t, std::string> classes_of(const std::vector<int32_t>& hashes) = 0;
};
class ContendedEntryCount {
 public:
  virtual ~ContendedEntryCount() = default;
  // The JVM's contended entries since the previous call; nullopt if unknown.
  virtual std::optional<uint64_t> since_last() = 0;
};

class MonitorContentionCollector : public Collector, public LockClassSink {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds unresolved_after{30};

  // resolver: null when objects cannot be tagged (classes are then only
  // learned). exact: null when the JVM's count cannot be read.
  MonitorContentionCollector(MonitorContentionRecorder& recorder, size_t lock_classes, bool events_enabled,
                             TaggedClassResolver* resolver = nullptr, ContendedEntryCount* exact = nullptr)
      : recorder_(recorder),
        lock_classes_(lock_classes),
        events_enabled_(events_enabled),
        resolver_(resolver),
        exact_(exact) {}

  void learn_classes(const std::map<int32_t, std::string>& classes) override;
  void collect(MetricFamilies& out) override;
  // Moves what the recorder gathered into per-label totals, or into the
  // window while scaling (now: for tests). Returns the entries moved.
  uint64_t absorb(Clock::time_point now = Clock::now());
  // Duty cycling starts: what the events saw so far counts as is; from
  // here on, flushes scale it to the JVM's count.
  void begin_scaling(Clock::time_point now = Clock::now());
  // Absorbs, reads the JVM's count and scales the window to it. Without an
  // exact count, the window counts 2^duty_shift times. Returns the JVM's
  // entries (or that estimate) read by this flush.
  uint64_t flush_scaled(Clock::time_point now = Clock::now());
  // Duty cycling ends: a last flush, then the events count as is again.
  void end_scaling(Clock::time_point now = Clock::now());
  bool scaling() const { return scaling_; }
  // Contended entries counted since the last call, by absorbs and flushes
  // alike (scrapes included): the JVM's while scaling, else the events'.
  uint64_t take_counted() { return std::exchange(counted_, 0); }
  // Lock hash -> class, if known (for spans).
  const std::string* class_of(int32_t hash) const;
  const std::map<std::string, WaitTotals>& by_label() const { return by_label_; }

 private:
  struct Pending {
    WaitTotals totals;
    Clock::time_point since;
  };
  // What rounding a scaled window left over, per bucket and for the sum.
  struct Remainder {
    std::array<double, wait_bucket_count + 1> buckets{};
    double sum_ns = 0;
  };
  void add_scaled(const std::string& label, const WaitTotals& t, double factor);

  MonitorContentionRecorder& recorder_;
  const size_t lock_classes_;
  const bool events_enabled_;
  TaggedClassResolver* resolver_;
  std::map<int32_t, std::string> classes_;  // identity hash -> class, bounded
  std::map<int32_t, Pending> pending_;      // hashes whose class is not known yet
  std::set<std::string> labelled_;          // at most lock_classes_
  std::map<std::string, WaitTotals> by_label_;
  ContendedEntryCount* exact_;
  bool scaling_ = false;
  std::map<std::string, WaitTotals> window_;  // seen by the events since the last flush, while scaling
  uint64_t unattributed_ = 0;                 // the JVM's entries of flushes whose window was empty
  std::map<std::string, Remainder> remainders_;
  uint64_t counted_ = 0;
};

}  // namespace jvmsight
