#pragma once
// The block profile (/debug/pprof/block; docs/PROFILES.md): threads parked
// on java.util.concurrent synchronizers. No JVM TI event says when a thread
// parks, so the agent thread samples: each round the lock scan's Java pass
// (ParkedThreadScan) lists the threads parked on a synchronizer with a
// token for the wait each is in; ParkEpisodes says which waits are new and
// which stacks to take; platform threads' stacks come from JVM TI
// (GetThreadListStackTraces: on JDK 8 and 11 one VM operation for the
// round's threads, from JDK 17 one handshake each, which stops no other
// thread), virtual threads' (JDK 21+) from Java, both named at once into a
// NamedStackTable. Rounds are paced by their cost (ParkPacing). Agent thread
// only.
#include <jni.h>
#include <jvmti.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "collectors/contention/frame_names.h"
#include "collectors/contention/monitor_profile.h"
#include "collectors/contention/named_stack_table.h"
#include "collectors/contention/park_episodes.h"
#include "collectors/contention/park_pacing.h"
#include "collectors/lock_graph/parked_thread_scan.h"
#include "collectors/threads/thread_roster.h"
#include "model/contention_profile.h"

namespace jvmsight {

class BlockProfile {
 public:
  // Stacks taken per round at most (then scaled, ParkEpisodes).
  static constexpr size_t max_platform_stacks = 64;
  static constexpr size_t max_virtual_stacks = 16;
  // Parked virtual threads seen per round at most.
  static constexpr jint max_virtual_seen = 1024;
  // virtual_threads: this JDK has virtual threads the scan can list (21+).
  BlockProfile(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, ParkedThreadScan& scan, bool virtual_threads);

  // The rounds that are due (platform threads', virtual threads'); returns
  // when the next is.
  std::chrono::nanoseconds sample();
  // The totals since the agent started.
  ContentionProfile snapshot();
  ProfileCounts counts() const;
  // The interval the last round chose.
  std::chrono::nanoseconds interval() const { return interval_; }

 private:
  // Each kind of thread (platform, virtual) has its own rounds and episodes.
  struct Rounds {
    ParkEpisodes episodes;
    std::chrono::steady_clock::time_point last{};  // of the last round; none yet
    std::chrono::nanoseconds planned{};            // until the next
    bool due(std::chrono::steady_clock::time_point now) const;
    // The time this round covers: since the last, at most twice what was
    // planned (a late round must not charge a pause to the waits it sees).
    uint64_t covered_ns(std::chrono::steady_clock::time_point now);
  };
  void platform_round(std::chrono::steady_clock::time_point now);
  // The parked platform threads, their new waits' stacks taken within the
  // budget; returns how many were parked.
  size_t platform_observe(std::chrono::steady_clock::time_point now, std::chrono::nanoseconds& stack_cpu);
  void virtual_round(std::chrono::steady_clock::time_point now);
  // How many stacks this round may take (ParkPacing's budgets).
  size_t platform_stack_allowance(std::chrono::steady_clock::time_point now, std::chrono::nanoseconds covered) const;
  // Stacks of these roster threads, interned; 0 for a thread no longer
  // parked. stack_cpu: what handshakes cost the agent thread.
  std::vector<uint32_t> platform_stacks(const std::vector<jthread>& threads, std::chrono::nanoseconds& stack_cpu);
  uint32_t intern_platform(const jvmtiStackInfo& info);
  void charge(const std::vector<ParkCharge>& charges);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadRoster& roster_;
  ParkedThreadScan& scan_;
  bool virtual_threads_;
  bool handshakes_;  // JDK 17+: a stack is one direct handshake, no safepoint
  FrameNames names_;
  NamedStackTable table_;
  ParkPacing pacing_;
  Rounds platform_;
  Rounds virtual_;
  std::chrono::nanoseconds interval_ = pacing_.min_interval;
  std::chrono::nanoseconds per_stack_{std::chrono::microseconds(20)};  // a handshake's CPU, averaged
  std::chrono::nanoseconds per_virtual_stack_{std::chrono::microseconds(50)};
  std::chrono::steady_clock::time_point next_stop_{};  // JDK 8, 11: the next safepoint for stacks
  uint64_t samples_ = 0;
  int64_t start_wall_ns_;
  int64_t start_mono_ns_;
  int64_t cpu_ns_ = 0;
};

}  // namespace jvmsight
