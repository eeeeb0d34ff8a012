#pragma once
// The agent's lifecycle: one start shared by -agentpath/JAVA_TOOL_OPTIONS
// (OnLoad) and jcmd JVMTI.agent_load (OnAttach), the agent thread, and the
// HTTP server. It wires recorders, collectors and exporters together and
// does none of their work. Exactly one Agent per process, created on the
// first successful load and never destroyed (see agent.cpp for why).
#include <jni.h>
#include <jvmti.h>

#include <memory>
#include <optional>
#include <string>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "agent/event_callbacks.h"
#include "agent/options.h"
#include "agent/otlp_plugin_loader.h"
#include "collectors/collector_set.h"
#include "collectors/gc/gc_collector.h"
#include "collectors/gc/gc_pause_recorder.h"
#include "collectors/locks/contended_wait_spans.h"
#include "collectors/locks/contention_duty_cycle.h"
#include "collectors/locks/deadlock_detector.h"
#include "collectors/locks/deadlock_reports.h"
#include "collectors/locks/jvm_blocked_counts.h"
#include "collectors/locks/lock_graph_source.h"
#include "collectors/locks/lock_queue_collector.h"
#include "collectors/locks/monitor_contention_collector.h"
#include "collectors/locks/monitor_contention_recorder.h"
#include "collectors/runtime/runtime_collector.h"
#include "collectors/threads/thread_info_reader.h"
#include "collectors/threads/thread_mx_bean.h"
#include "collectors/threads/thread_roster.h"
#include "collectors/threads/thread_state_collector.h"
#include "collectors/threads/virtual_thread_counter.h"
#include "exporters/http/http_server.h"
#include "model/span.h"

namespace jvmsight {

class Agent {
 public:
  // Never throws. live: called from Agent_OnAttach (the VM is running).
  static jint load(JavaVM* vm, const char* options, bool live) noexcept;

 private:
  Agent(jvmtiEnv* jvmti, Options options) : jvmti_(jvmti), options_(std::move(options)) {}
  static void on_vm_init(JNIEnv* jni);
  static void on_vm_death();
  EventSinks event_sinks();
  void start_live(JNIEnv* jni);
  void schedule_periodic_work();
  void build_collectors(JNIEnv* jni);
  void build_lock_collectors(JNIEnv* jni);
  void start_http();
  bool native_states() const;
  MetricFamilies collect_now();
  // Hands what the span queue holds to the OTLP plugin (agent thread).
  void push_spans();

  jvmtiEnv* jvmti_;
  const Options options_;
  Capabilities capabilities_;
  EnabledEvents events_;
  std::string jdk_version_;
  std::string vm_name_;

  // Fed by event callbacks (EventSinks).
  ThreadRoster thread_roster_;
  VirtualThreadCounter virtual_threads_;
  GcPauseRecorder gc_pauses_;
  MonitorContentionRecorder contention_;

  SpanQueue spans_{1024};  // for the OTLP exporter; bounded, drops when full
  AgentThread agent_thread_;

  // Built on the agent thread and used only there.
  ThreadMxBean thread_mx_bean_;
  std::unique_ptr<ThreadSource> thread_source_;
  std::unique_ptr<ThreadInfoReader> thread_info_;
  std::unique_ptr<LockGraphSource> lock_source_;
  std::unique_ptr<ThreadStateCollector> thread_states_;
  std::unique_ptr<GcCollector> gc_;
  std::unique_ptr<RuntimeCollector> runtime_;
  std::unique_ptr<MonitorContentionCollector> contention_collector_;
  std::unique_ptr<JvmBlockedCounts> blocked_counts_;
  std::unique_ptr<ContentionDutyCycle> duty_cycle_;  // only when contention_sampling is on
  std::unique_ptr<ContendedWaitSpans> wait_spans_;   // only when contended_span_min_ms is on
  std::unique_ptr<LockQueueCollector> lock_queues_;
  std::unique_ptr<DeadlockDetector> deadlock_detector_;
  std::unique_ptr<DeadlockReports> deadlock_reports_;
  CollectorSet collectors_;  // what a scrape runs, in order

  std::unique_ptr<HttpServer> server_;
  std::unique_ptr<OtlpPlugin> otlp_;  // only when an OTLP endpoint is configured
};

}  // namespace jvmsight
