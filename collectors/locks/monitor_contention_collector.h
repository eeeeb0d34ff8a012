#pragma once
// jvmsight_monitor_contended_* and jvmsight_monitor_wait_* from the event
// recorder, labelled by lock class with bounded cardinality. Agent thread.
//
// Callbacks only know a lock's identity hash (and tag the object on its first
// contention); the class is found on the agent thread from the tag
// (TagResolver: JVM TI GetObjectsWithTags), or learned when the deadlock
// check sees a thread blocked on it (learn_classes). A hash still unknown
// after unresolved_after (the object died, or tagging was unavailable)
// counts as lock_class="unresolved".
// Cardinality: the first K classes to show up (ranked by wait time within
// one collection) keep their own label for good; later classes count as
// lock_class="other". No series ever moves, so every counter stays monotonic.
#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "collectors/collector.h"
#include "collectors/locks/contention_sampler.h"
#include "collectors/locks/monitor_contention_recorder.h"

namespace jvmsight {

class MonitorContentionCollector : public Collector {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds unresolved_after{30};

  // Classes of tagged lock objects by identity hash; those not found are left out.
  using TagResolver = std::function<std::map<int32_t, std::string>(const std::vector<int32_t>&)>;

  MonitorContentionCollector(MonitorContentionRecorder& recorder, size_t lock_classes, bool events_enabled,
                             TagResolver resolver = nullptr, ContentionSampler sampler = ContentionSampler(0))
      : recorder_(recorder),
        lock_classes_(lock_classes),
        events_enabled_(events_enabled),
        resolver_(std::move(resolver)),
        sampler_(sampler) {}

  void learn_classes(const std::map<int32_t, std::string>& classes);
  void collect(MetricFamilies& out) override;
  // Moves what the recorder gathered into per-label totals (now: for tests).
  void absorb(Clock::time_point now = Clock::now());
  // Agent thread, about once a second whether or not anyone scrapes:
  // absorbs, and sets the recorder's sampling from the rate since last time.
  void adjust_sampling(Clock::time_point now = Clock::now());
  const std::map<std::string, WaitTotals>& by_label() const { return by_label_; }

 private:
  struct Pending {
    WaitTotals totals;
    Clock::time_point since;
  };

  MonitorContentionRecorder& recorder_;
  const size_t lock_classes_;
  const bool events_enabled_;
  TagResolver resolver_;
  std::map<int32_t, std::string> classes_;  // identity hash -> class, bounded
  std::map<int32_t, Pending> pending_;      // hashes whose class is not known yet
  std::set<std::string> labelled_;          // at most lock_classes_
  std::map<std::string, WaitTotals> by_label_;
  ContentionSampler sampler_;
  uint64_t absorbed_ = 0;  // contended entries (weighted) absorbed since the last adjust_sampling
  Clock::time_point adjusted_at_ = Clock::now();
};

}  // namespace jvmsight
