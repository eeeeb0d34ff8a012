#pragma once
// The cold half of the monitor contention profile, on the agent thread:
// names the frames of each new stack soon after its first wait (before its
// classes can unload), and builds the ContentionProfile the endpoint
// encodes. The values are estimates (wait_sampling.h); docs/PROFILES.md.
#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <vector>

#include "collectors/contention/frame_names.h"
#include "collectors/contention/monitor_stack_recorder.h"
#include "model/contention_profile.h"

namespace jvmsight {

// What the profile's upkeep cost and kept: the jvmsight_profile_* families.
struct ProfileCounts {
  uint64_t samples = 0;     // waits kept
  uint64_t stacks = 0;      // distinct stacks in the table
  uint64_t dropped = 0;     // first waits at a new stack that found the table full
  int64_t cpu_ns = 0;       // the agent thread's CPU naming and building (block: and sampling)
  int64_t interval_ns = 0;  // block: the sampler's interval now; mutex: none
};

class MonitorProfile {
 public:
  MonitorProfile(jvmtiEnv* jvmti, JNIEnv* jni, const MonitorStackRecorder& recorder);

  // Every slice: names the frames of stacks not named yet.
  void name_new();
  // The totals since the agent started.
  ContentionProfile snapshot();
  ProfileCounts counts() const;

 private:
  void name_new_untimed();

  const MonitorStackRecorder& recorder_;
  FrameNames names_;
  std::vector<std::vector<ProfileFrame>> frames_;  // by stack id, once named
  std::vector<bool> named_;
  uint32_t other_function_;
  int64_t start_wall_ns_;
  int64_t start_mono_ns_;
  int64_t cpu_ns_ = 0;
};

}  // namespace jvmsight
