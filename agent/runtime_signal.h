#pragma once
// client_java's runtime and process families (memory, pools, buffers,
// classes, JIT, process CPU and memory), in the name generations the
// client_java_names option asks for; none when it is off. And the JVM's
// safepoints, whatever that option says.
#include <jni.h>
#include <jvmti.h>

#include <memory>

#include "agent/agent_thread.h"
#include "collectors/collector_set.h"
#include "collectors/runtime/runtime_collector.h"
#include "collectors/runtime/safepoint_collector.h"
#include "options/options.h"

namespace jvmsight {

class RuntimeSignal {
 public:
  RuntimeSignal(jvmtiEnv* jvmti, const Options& options) : jvmti_(jvmti), options_(options) {}

  // Before the agent thread starts: process CPU, served from the background.
  void schedule(AgentThread& thread);
  // Agent thread, once.
  void build(JNIEnv* jni, CollectorSet& collectors);

 private:
  jvmtiEnv* jvmti_;
  const Options& options_;
  std::unique_ptr<RuntimeCollector> collector_;
  std::unique_ptr<SafepointCollector> safepoints_;
};

}  // namespace jvmsight
