#pragma once
// The agent's lifecycle: one start shared by -agentpath/JAVA_TOOL_OPTIONS
// (OnLoad) and jcmd JVMTI.agent_load (OnAttach), the agent thread, and the
// HTTP server. Exactly one Agent per process, created on the first
// successful load and never destroyed (see agent.cpp for why).
#include <jni.h>
#include <jvmti.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/agent_thread.h"
#include "agent/capabilities.h"
#include "agent/options.h"
#include "collectors/collector.h"
#include "collectors/gc_collector.h"
#include "collectors/gc_pause_recorder.h"
#include "collectors/span.h"
#include "collectors/deadlock_detector.h"
#include "collectors/lock_graph_source.h"
#include "collectors/monitor_contention_collector.h"
#include "collectors/monitor_contention_recorder.h"
#include "collectors/thread_info_reader.h"
#include "collectors/thread_mx_bean.h"
#include "collectors/thread_roster.h"
#include "collectors/virtual_thread_counter.h"
#include "exporters/http/http_server.h"

namespace jvmsight {

class Agent {
 public:
  // Never throws. live: called from Agent_OnAttach (the VM is running).
  static jint load(JavaVM* vm, const char* options, bool live) noexcept;

  void on_vm_init(JNIEnv* jni);
  void on_vm_death();
  VirtualThreadCounter& virtual_threads() { return virtual_threads_; }
  ThreadRoster& thread_roster() { return thread_roster_; }
  GcPauseRecorder& gc_pauses() { return gc_pauses_; }
  MonitorContentionRecorder& contention() { return contention_; }
  void set_monitor_events(bool enabled) { monitor_events_ = enabled; }
  bool tag_locks() const { return capabilities_.tag_objects; }
  bool wants_contention_events() const { return options_.contention; }
  void set_thread_events(bool enabled) { thread_events_ = enabled; }

 private:
  Agent(jvmtiEnv* jvmti, Options options) : jvmti_(jvmti), options_(std::move(options)) {}
  void start_live(JNIEnv* jni);
  void build_collectors(JNIEnv* jni);
  void start_http();
  bool native_states() const;
  std::optional<MetricFamilies> metrics();
  MetricFamilies collect_now();
  std::optional<GcReport> gc_report();
  void build_lock_collectors(JNIEnv* jni);
  void report_deadlock(const DeadlockCycle& cycle);
  std::vector<DeadlockReport> current_deadlocks();

  jvmtiEnv* jvmti_;
  const Options options_;
  Capabilities capabilities_;
  std::string jdk_version_;
  std::string vm_name_;
  VirtualThreadCounter virtual_threads_;
  GcPauseRecorder gc_pauses_;
  SpanQueue spans_{1024};  // for the OTLP exporter; bounded, drops when full
  GcCollector* gc_ = nullptr;  // owned by collectors_; agent thread only
  MonitorContentionRecorder contention_;  // written by event callbacks
  bool monitor_events_ = false;
  bool thread_events_ = false;
  AgentThread agent_thread_;
  ThreadMxBean thread_mx_bean_;
  ThreadRoster thread_roster_;
  struct NamedCollector {
    std::string name;  // the `collector` label of jvmsight_collector_duration_seconds
    std::unique_ptr<Collector> collector;
  };
  std::vector<NamedCollector> collectors_;  // agent thread only
  std::unique_ptr<ThreadSource> thread_source_;
  std::unique_ptr<ThreadInfoReader> thread_info_;   // agent thread only
  std::unique_ptr<LockGraphSource> lock_source_;    // agent thread only
  DeadlockDetector* deadlock_detector_ = nullptr;   // in collectors_; agent thread only
  MonitorContentionCollector* contention_collector_ = nullptr;  // in collectors_; agent thread only
  std::unique_ptr<HttpServer> server_;
};

}  // namespace jvmsight
