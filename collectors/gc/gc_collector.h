#pragma once
// GC pauses (JVM TI) and collector totals (GarbageCollectorMXBeans):
// drains the pause recorder into the pause histogram and span queue, gives
// each pause its collector via GcPauseMatcher, and reports the beans' counts
// in client_java's names. Agent thread only.
#include <jni.h>

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "collectors/collector.h"
#include "collectors/gc/gc_mx_beans.h"
#include "collectors/gc/gc_pause_matcher.h"
#include "collectors/gc/gc_pause_recorder.h"
#include "collectors/gc/pause_histogram.h"
#include "collectors/gc/pool_allocation.h"
#include "model/gc_report.h"
#include "model/span.h"

namespace jvmsight {

class GcCollector : public Collector {
 public:
  static constexpr size_t recent_pause_count = 64;

  // notifications: nullopt = auto (on unless a concurrent-cycle collector
  // runs: notifications lengthen ZGC/Shenandoah pauses several-fold).
  // by_cause: pauses also by cause (option gc_cause).
  GcCollector(JNIEnv* jni, GcPauseRecorder& recorder, SpanQueue& spans, int64_t span_min_ns,
              std::optional<bool> notifications, bool by_cause = false)
      : jni_(jni),
        recorder_(recorder),
        spans_(spans),
        span_min_ns_(span_min_ns),
        notifications_(notifications),
        by_cause_(by_cause) {}

  // Periodic (and before every collect/report): moves pauses and
  // notifications out of their buffers while they are fresh.
  void poll();
  void collect(MetricFamilies& out) override;
  GcReport report();

 private:
  void record(const GcPause& pause);
  void set_up();

  JNIEnv* jni_;
  GcPauseRecorder& recorder_;
  SpanQueue& spans_;
  const int64_t span_min_ns_;
  const std::optional<bool> notifications_;
  const bool by_cause_;
  bool set_up_ = false;
  GcMxBeans beans_;
  GcPauseMatcher matcher_;
  PoolAllocation allocation_;
  // By collector, action and cause ("" unless by_cause_).
  std::map<std::tuple<std::string, std::string, std::string>, PauseHistogram> histograms_;
  std::map<std::string, uint64_t> collections_in_pauses_;  // by collector
  int64_t max_since_scrape_ns_ = 0;
  std::deque<SpanRecord> recent_;
};

}  // namespace jvmsight
