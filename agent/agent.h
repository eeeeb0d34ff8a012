#pragma once
// The agent's lifecycle: one start shared by -agentpath/JAVA_TOOL_OPTIONS
// (OnLoad) and jcmd JVMTI.agent_load (OnAttach), the agent thread, the HTTP
// server and the OTLP plugin, and the stop at VMDeath. Each signal
// (threads, GC, runtime, contention, deadlocks) assembles its own producers
// (agent/*_signal.h); this class only starts and stops them. Exactly one
// Agent per process, created on the first successful load and never
// destroyed (see agent.cpp for why).
#include <jni.h>
#include <jvmti.h>

#include <memory>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "agent/contention_signal.h"
#include "agent/deadlock_signal.h"
#include "agent/event_callbacks.h"
#include "agent/gc_signal.h"
#include "agent/http_front.h"
#include "agent/metrics_snapshot.h"
#include "agent/otlp_plugin_loader.h"
#include "agent/runtime_signal.h"
#include "agent/thread_signal.h"
#include "collectors/collector_set.h"
#include "exporters/http/http_server.h"
#include "exporters/reports/stderr_deadlock_reporter.h"
#include "model/span.h"
#include "options/options.h"

namespace jvmsight {

class Agent {
 public:
  // Never throws. live: called from Agent_OnAttach (the VM is running).
  static jint load(JavaVM* vm, const char* options, bool live) noexcept;

 private:
  Agent(jvmtiEnv* jvmti, Options options);
  static void on_vm_init(JNIEnv* jni);
  static void on_vm_death();
  void stop();
  EventSinks event_sinks();
  void start_live(JNIEnv* jni);
  void schedule_periodic_work();
  void build_signals(JNIEnv* jni);
  // Hands what the span queue holds to the OTLP plugin (agent thread).
  void push_spans();

  jvmtiEnv* jvmti_;
  const Options options_;
  Capabilities capabilities_;
  EnabledEvents events_;

  SpanQueue spans_{1024};  // for the OTLP exporter; bounded, drops when full
  AgentThread agent_thread_;
  ThreadSignal threads_;
  GcSignal gc_;
  RuntimeSignal runtime_;
  ContentionSignal contention_;
  DeadlockSignal deadlocks_;
  CollectorSet collectors_;  // what a scrape runs, in order (built on the agent thread)
  MetricsSnapshot metrics_;
  AgentAnswers answers_{agent_thread_, metrics_,   threads_,
                        gc_,           deadlocks_, contention_};  // what the HTTP endpoints ask

  StderrDeadlockReporter stderr_deadlocks_;
  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<OtlpPlugin> otlp_;  // only when an OTLP endpoint is configured
};

}  // namespace jvmsight
