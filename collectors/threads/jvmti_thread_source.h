#pragma once
#include <jni.h>
#include <jvmti.h>

#include "collectors/threads/thread_mx_bean.h"
#include "collectors/threads/thread_pools.h"
#include "collectors/threads/thread_roster.h"
#include "collectors/threads/thread_source.h"
#include "collectors/threads/virtual_thread_census.h"
#include "collectors/threads/virtual_thread_starts.h"

namespace jvmsight {

// Thread states without a safepoint: the roster's threadStatus for every
// thread (one Java call for all of them when the deadlock check's Java pass
// is loaded), plus (if asked) GetThreadState for RUNNABLE ones only, the
// only ones that can be running native code. The same walk tallies the
// thread pools' states, when there are pools. Agent thread only.
class JvmtiThreadSource : public ThreadSource {
 public:
  // native_states: ask GetThreadState for the in-native and suspended bits.
  // pools: where the walk also counts each thread's state by pool; may be null.
  // starts: the virtual-thread start count; may be null.
  JvmtiThreadSource(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, ThreadMxBean& mx,
                    const VirtualThreadCensus& census, VirtualThreadStarts* starts, bool native_states,
                    ThreadPools* pools)
      : jvmti_(jvmti),
        jni_(jni),
        roster_(roster),
        mx_(mx),
        census_(census),
        starts_(starts),
        native_states_(native_states),
        pools_(pools) {}
  bool count_states(ThreadStateCounts& out) override;
  std::optional<ThreadCounts> counts() override { return mx_.counts(jni_); }
  std::optional<uint64_t> live_virtual_threads() override { return census_.live(jni_); }
  std::optional<uint64_t> virtual_threads_started() override { return starts_ ? starts_->started() : std::nullopt; }

 private:
  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadRoster& roster_;
  ThreadMxBean& mx_;
  const VirtualThreadCensus& census_;
  VirtualThreadStarts* starts_;
  const bool native_states_;
  ThreadPools* pools_;
};

}  // namespace jvmsight
