#pragma once
// How long the JVM stood still for safepoints, whatever stopped it (GC,
// deoptimization, biased-lock revocation, thread dumps, class
// redefinition): HotSpot's own counters sun.rt.safepoints,
// sun.rt.safepointTime and sun.rt.safepointSyncTime (ticks of
// sun.os.hrt.frequency), read from the JVM's PerfData memory at each
// scrape, a plain memory read each. Agent thread only.
#include <jni.h>

#include <cstdint>
#include <memory>

#include "collectors/collector.h"

namespace jvmsight {

// HotSpot's counters as read, and what the families serve.
struct SafepointTicks {
  int64_t count = 0;
  int64_t time = 0;       // sun.rt.safepointTime
  int64_t sync = 0;       // sun.rt.safepointSyncTime: from the request until every thread stopped
  int64_t frequency = 0;  // ticks a second
};

// Before JDK 13 sun.rt.safepointTime runs from the request to the end, the
// time to reach the safepoint included; since then (JDK-8219436) only from
// after the cleanup to the end. Stopped time is the first on every JDK: the
// sum of both counters from 13 on (the cleanup between them is in neither).
constexpr bool safepoint_time_includes_sync(int jvmti_major) { return jvmti_major < 13; }

// jvmsight_safepoints_total, jvmsight_safepoint_seconds_total and
// jvmsight_safepoint_sync_seconds_total from one reading. Pure.
void add_safepoint_families(MetricFamilies& out, const SafepointTicks& ticks, bool time_includes_sync);

class SafepointCollector : public Collector {
 public:
  // Null when this JVM keeps no such counters (-XX:-UsePerfData), said
  // once at info level. jvmti_major: JVM TI's major version (1 on JDK 8).
  static std::unique_ptr<SafepointCollector> create(JNIEnv* jni, int jvmti_major);
  void collect(MetricFamilies& out) override;

 private:
  SafepointCollector(const int64_t* count, const int64_t* time, const int64_t* sync, int64_t frequency,
                     bool time_includes_sync)
      : count_(count), time_(time), sync_(sync), frequency_(frequency), time_includes_sync_(time_includes_sync) {}

  const int64_t* count_;  // inside the JVM's PerfData memory, which it never unmaps
  const int64_t* time_;
  const int64_t* sync_;
  const int64_t frequency_;
  const bool time_includes_sync_;
};

}  // namespace jvmsight
