#pragma once
// jvmsight_thread_pool_threads{pool,state} and
// jvmsight_thread_pool_cpu_seconds_total{pool}: ThreadPools fed from the
// JVM. Names are never read per thread on a scrape: a thread's name is read
// when the roster first lists it (this is its RosterWatcher), then again on
// the background schedule (setName can change it). The scrape's thread walk
// (JvmtiThreadSource) tallies the status words it already reads into the
// pools. CPU times are read in the background while someone collects, like
// the OS readings (BackgroundRefresh: at most every 5 s, and about 0.07% of
// a core, served with their age); a thread's CPU between the last reading and
// its end comes from its ThreadEnd record (ended_threads.h). Agent thread
// only.
#include <jni.h>
#include <jvmti.h>

#include <string>
#include <vector>

#include "collectors/background_refresh.h"
#include "collectors/collector.h"
#include "collectors/threads/ended_threads.h"
#include "collectors/threads/thread_cpu_reader.h"
#include "collectors/threads/thread_mx_bean.h"
#include "collectors/threads/thread_pools.h"
#include "collectors/threads/thread_roster.h"

namespace jvmsight {

class ThreadPoolCollector : public Collector, public RosterWatcher {
 public:
  // cap: pools with a label of their own (the option thread_pools).
  // ids_in_a_list: see ThreadCpuReader.
  ThreadPoolCollector(jvmtiEnv* jvmti, JNIEnv* jni, ThreadRoster& roster, ThreadMxBean& mx, EndedThreadRing& ended,
                      size_t cap, bool ids_in_a_list);

  // What the scrape's thread walk counts into.
  ThreadPools& tally() { return pools_; }

  uint32_t joined(JNIEnv* jni, jthread thread) override;
  void left(JNIEnv* jni, jthread thread, uint32_t mark) override;
  void collect(MetricFamilies& out) override;
  // Periodic: names and CPU times read again when due, in steps of at
  // most step_budget of CPU, one a tick (JDK 8's reading at 10,000 threads
  // takes a second: in one go it would hold up scrapes and the deadlock
  // check that long).
  void refresh();
  static constexpr std::chrono::milliseconds step_budget{20};

 private:
  std::string name_of(JNIEnv* jni, jthread thread);
  void drain_ended();
  // A reading: names and the ids to read, then CPU times step by step.
  void start_reading();
  bool continue_reading();

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ThreadRoster& roster_;
  ThreadMxBean& mx_;
  EndedThreadRing& ended_;
  ThreadPools pools_;
  ThreadCpuReader cpu_;
  jmethodID get_name_ = nullptr;
  // A reading costs about a microsecond a thread (the kernel's thread CPU
  // clock; 11-14 ms at 10,000 threads on JDK 11 to 25, 32 ms on 21): at
  // most every 5 s, and 1,500 times its cost apart. At 1,000 times (the OS
  // readings' pace) a reading costing more than the last took the share
  // just past the 0.1% of a core the readings may take (1.02-1.03 ms a
  // second measured); 1,500 leaves room.
  BackgroundRefresh refresh_{std::chrono::seconds(5), 1500};
  // The reading under way: the threads' ids and marks, how far it got, and
  // its CPU so far.
  std::vector<jlong> ids_, times_;
  std::vector<uint32_t> marks_;
  size_t next_ = 0;
  bool reading_ = false;
  BackgroundRefresh::Clock::duration reading_cpu_{};
};

}  // namespace jvmsight
