#pragma once
// Threads: the one thread list (ThreadRoster, fed by ThreadStart), live
// virtual threads (VirtualThreadCensus), their starts (VirtualThreadStarts)
// and pinnings, thread states and counts for a
// scrape, thread pools (their states from the same walk, their CPU from the
// background and, with ended_thread_cpu, ThreadEnd), and thread dumps
// (ThreadMXBean) for /threads and the deadlock reports.
#include <jni.h>
#include <jvmti.h>

#include <memory>
#include <optional>
#include <vector>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "collectors/collector_set.h"
#include "collectors/threads/ended_threads.h"
#include "collectors/threads/pinning_collector.h"
#include "collectors/threads/pinning_recorder.h"
#include "collectors/threads/thread_info_reader.h"
#include "collectors/threads/thread_mx_bean.h"
#include "collectors/threads/thread_pool_collector.h"
#include "collectors/threads/thread_roster.h"
#include "collectors/threads/thread_source.h"
#include "collectors/threads/thread_state_collector.h"
#include "collectors/threads/virtual_thread_census.h"
#include "collectors/threads/virtual_thread_starts.h"
#include "options/options.h"

namespace jvmsight {

class ThreadSignal {
 public:
  ThreadSignal(jvmtiEnv* jvmti, const Options& options) : jvmti_(jvmti), options_(options) {}

  // What the event callbacks feed, from OnLoad on.
  ThreadRoster& roster() { return roster_; }
  PinningRecorder& pinning() { return pinning_; }
  EndedThreadRing& ended_threads() { return ended_threads_; }

  // Before the agent thread starts: the thread pools' names and CPU, read
  // in the background.
  void schedule(AgentThread& thread);

  // Agent thread, once. change_events: ThreadStart is enabled (else
  // the roster takes the thread list at every scrape). caps: whether the JVM
  // has virtual threads, and the pinning probes got their breakpoints.
  void build(JNIEnv* jni, bool change_events, const Capabilities& caps, CollectorSet& collectors);
  // After build, agent thread only.
  ThreadMxBean& mx_bean() { return mx_bean_; }
  ThreadInfoReader& dumps() { return *dumps_; }
  // Live virtual threads; available() only on JDK 21+.
  const VirtualThreadCensus& virtual_census() const { return census_; }
  // Virtual threads started so far (agent thread); null before 21 or
  // without ThreadStart events.
  VirtualThreadStarts* virtual_starts() { return virtual_starts_.available() ? &virtual_starts_ : nullptr; }
  // /threads: every platform thread with its stack; nullopt if not built or refused.
  std::optional<std::vector<ThreadRecord>> dump_all() { return dumps_ ? dumps_->dump_all() : std::nullopt; }

 private:
  bool native_states() const;
  void build_pinning(JNIEnv* jni, const Capabilities& caps, CollectorSet& collectors);

  jvmtiEnv* jvmti_;
  const Options& options_;
  ThreadRoster roster_;
  VirtualThreadStarts virtual_starts_;
  VirtualThreadCensus census_;
  PinningRecorder pinning_;
  PinningCollector pinning_collector_{pinning_};
  ThreadMxBean mx_bean_;
  EndedThreadRing ended_threads_;
  std::unique_ptr<ThreadPoolCollector> pools_;
  std::unique_ptr<ThreadSource> source_;
  std::unique_ptr<ThreadStateCollector> states_;
  std::unique_ptr<ThreadInfoReader> dumps_;
};

}  // namespace jvmsight
