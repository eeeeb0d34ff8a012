#pragma once
// Turns long contended monitor waits (ContendedWaitRing, filled by the
// MonitorContendedEntered callback) into "monitor.contended_wait" spans on
// the agent's SpanQueue, for exporters. Agent thread only.
//
// Attributes: lock.class (the lock object's class, as the contention metrics
// name it), thread.name (the waiting platform thread's name; left out for a
// thread the roster does not list, e.g. a virtual thread). The holder is not
// known cheaply when the wait ends (it has just released the monitor), so
// it is not given.
#include <jni.h>
#include <jvmti.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "collectors/contention/contended_wait_ring.h"
#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/threads/thread_roster.h"
#include "model/span.h"

namespace jvmsight {

inline constexpr const char* contended_wait_span_name = "monitor.contended_wait";

class ContendedWaitSpans {
 public:
  ContendedWaitSpans(jvmtiEnv* jvmti, JNIEnv* jni, ContendedWaitRing& ring, MonitorContentionCollector& classes,
                     ThreadRoster& roster, SpanQueue& spans)
      : jvmti_(jvmti), jni_(jni), ring_(ring), classes_(classes), roster_(roster), spans_(spans) {}

  // Drains the ring into spans; returns how many.
  size_t drain();

 private:
  // Names of the roster's threads whose identity hash is asked for.
  std::map<int32_t, std::string> thread_names(const std::vector<int32_t>& hashes);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  ContendedWaitRing& ring_;
  MonitorContentionCollector& classes_;
  ThreadRoster& roster_;
  SpanQueue& spans_;
};

}  // namespace jvmsight
