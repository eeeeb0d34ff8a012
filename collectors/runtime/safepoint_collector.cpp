#include "collectors/runtime/safepoint_collector.h"

#include "collectors/runtime/perf_data.h"
#include "common/log.h"

namespace jvmsight {

void add_safepoint_families(MetricFamilies& out, const SafepointTicks& t, bool time_includes_sync) {
  if (t.frequency <= 0) return;
  const auto seconds = [&](int64_t ticks) { return static_cast<double>(ticks) / static_cast<double>(t.frequency); };
  add_sample(add_family(out, "jvmsight_safepoints_total"), static_cast<double>(t.count));
  add_sample(add_family(out, "jvmsight_safepoint_seconds_total"),
             seconds(time_includes_sync ? t.time : t.time + t.sync));
  add_sample(add_family(out, "jvmsight_safepoint_sync_seconds_total"), seconds(t.sync));
}

std::unique_ptr<SafepointCollector> SafepointCollector::create(JNIEnv* jni, int jvmti_major) {
  const std::optional<PerfDataRegion> region = attach_own_perf_data(jni);
  const int64_t* count = region ? find_perf_long(*region, "sun.rt.safepoints") : nullptr;
  const int64_t* time = region ? find_perf_long(*region, "sun.rt.safepointTime") : nullptr;
  const int64_t* sync = region ? find_perf_long(*region, "sun.rt.safepointSyncTime") : nullptr;
  const int64_t* frequency = region ? find_perf_long(*region, "sun.os.hrt.frequency") : nullptr;
  if (count == nullptr || time == nullptr || sync == nullptr || frequency == nullptr ||
      read_perf_long(frequency) <= 0) {
    log::info("safepoint metrics are off: this JVM keeps no PerfData counters (-XX:-UsePerfData)");
    return nullptr;
  }
  return std::unique_ptr<SafepointCollector>(
      new SafepointCollector(count, time, sync, read_perf_long(frequency), safepoint_time_includes_sync(jvmti_major)));
}

void SafepointCollector::collect(MetricFamilies& out) {
  add_safepoint_families(out, {read_perf_long(count_), read_perf_long(time_), read_perf_long(sync_), frequency_},
                         time_includes_sync_);
}

}  // namespace jvmsight
