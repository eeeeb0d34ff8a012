#include "collectors/contention/monitor_profile.h"

#include "common/clock.h"

namespace jvmsight {
namespace {

int64_t rounded_waits(uint64_t weight) {
  return static_cast<int64_t>((weight + StackTable::weight_one / 2) / StackTable::weight_one);
}

}  // namespace

MonitorProfile::MonitorProfile(jvmtiEnv* jvmti, JNIEnv* jni, const MonitorStackRecorder& recorder)
    : recorder_(recorder),
      names_(jvmti, jni),
      frames_(StackTable::capacity + StackTable::first_entry),
      named_(StackTable::capacity + StackTable::first_entry),
      other_function_(names_.function("[other: the stack table was full]")),
      start_wall_ns_(clock_ns(CLOCK_REALTIME)),
      start_mono_ns_(clock_ns(CLOCK_MONOTONIC)) {
  frames_[StackTable::other] = {ProfileFrame{other_function_, 0}};
  named_[StackTable::other] = true;
}

void MonitorProfile::name_new() {
  CpuTimer timer(cpu_ns_);
  name_new_untimed();
}

void MonitorProfile::name_new_untimed() {
  recorder_.table().for_each([this](uint32_t id, const jvmtiFrameInfo* frames, uint32_t depth, uint64_t, uint64_t) {
    if (named_[id]) return;
    std::vector<ProfileFrame>& named = frames_[id];
    named.reserve(depth);
    for (uint32_t i = 0; i < depth; ++i) named.push_back(names_.frame(frames[i]));
    named_[id] = true;
  });
}

ContentionProfile MonitorProfile::snapshot() {
  CpuTimer timer(cpu_ns_);
  name_new_untimed();
  ContentionProfile p;
  recorder_.for_each_estimate([&](uint32_t id, const jvmtiFrameInfo*, uint32_t, uint64_t weight, uint64_t delay_ns) {
    if (weight == 0 || !named_[id]) return;
    p.stacks.push_back({id, frames_[id], rounded_waits(weight), static_cast<int64_t>(delay_ns)});
  });
  p.functions = names_.functions();
  p.time_ns = start_wall_ns_;
  p.duration_ns = clock_ns(CLOCK_MONOTONIC) - start_mono_ns_;
  p.dropped = recorder_.table().dropped();
  return p;
}

ProfileCounts MonitorProfile::counts() const {
  const StackTable& table = recorder_.table();
  return {recorder_.samples(), table.kept(), table.dropped(), cpu_ns_};
}

}  // namespace jvmsight
