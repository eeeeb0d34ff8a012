#pragma once
// client_java's runtime and process families (memory, pools, buffers,
// classes, JIT, process CPU and memory), in the name generations the
// client_java_names option asks for; none when it is off.
#include <jni.h>

#include <memory>

#include "agent/agent_thread.h"
#include "collectors/collector_set.h"
#include "collectors/runtime/runtime_collector.h"
#include "options/options.h"

namespace jvmsight {

class RuntimeSignal {
 public:
  explicit RuntimeSignal(const Options& options) : options_(options) {}

  // Before the agent thread starts: process CPU, served from the background.
  void schedule(AgentThread& thread);
  // Agent thread, once.
  void build(JNIEnv* jni, CollectorSet& collectors);

 private:
  const Options& options_;
  std::unique_ptr<RuntimeCollector> collector_;
};

}  // namespace jvmsight
