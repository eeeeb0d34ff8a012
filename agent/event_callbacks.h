#pragma once
// The one JVM TI callback table. Every event the agent handles is routed
// from here to what it feeds, named in EventSinks. Event callbacks are hot
// paths: atomics, the recorders' fixed tables, and a few JVM TI calls that
// neither allocate nor block (thread-local storage, object hash codes, tags);
// no malloc, mutex, JNI or logging.
#include <jni.h>
#include <jvmti.h>

#include "agent/capabilities.h"
#include "collectors/contention/contention_duty_cycle.h"
#include "collectors/contention/monitor_contention_recorder.h"
#include "collectors/contention/monitor_stack_recorder.h"
#include "collectors/gc/gc_pause_recorder.h"
#include "collectors/threads/ended_threads.h"
#include "collectors/threads/pinning_recorder.h"
#include "collectors/threads/thread_roster.h"

namespace jvmsight {

// What the callbacks may touch, and nothing else. Lives as long as the JVM.
struct EventSinks {
  ThreadRoster* threads = nullptr;  // ThreadStart: its change counter
  // ThreadEnd, enabled only when set: the ending thread's own CPU time.
  EndedThreadRing* ended_threads = nullptr;
  GcPauseRecorder* gc_pauses = nullptr;  // VM stopped: clocks and a ring only
  MonitorContentionRecorder* contention = nullptr;
  PinningRecorder* pinning = nullptr;  // Breakpoint: the pinning probes only
  bool tag_locks = false;              // SetTag a lock on its first contention (can_tag_objects)
  // The mutex profile (null when profiles=off): stacks taken at
  // MonitorContendedEnter, their ids in profile_env's thread-local word.
  MonitorStackRecorder* monitor_stacks = nullptr;
  jvmtiEnv* profile_env = nullptr;
  // Lifecycle, not hot: VMInit (startup only) and VMDeath.
  void (*vm_init)(JNIEnv* jni) = nullptr;
  void (*vm_death)() = nullptr;
};

// Which optional events ended up enabled.
struct EnabledEvents {
  bool thread_start = false;
  bool monitor = false;  // MonitorContendedEnter/Entered, MonitorWait/Waited
};

// Installs the table and enables the lifecycle events (VMInit only when
// loading at startup), plus what the granted capabilities allow; monitor
// events only when want_contention. False if the table itself was refused.
bool install_event_callbacks(jvmtiEnv* jvmti, const EventSinks& sinks, const Capabilities& caps, bool live,
                             bool want_contention, EnabledEvents& enabled);

// Agent thread: MonitorContendedEnter/Entered on or off, for the
// contention duty cycle, and on JDK 21 the other thread-filterable events
// with them (MonitorWait/Waited, and Breakpoint once the pinning probes
// are set). Only the events that are enabled: with contention=off the
// cycle on JDK 21 turns the breakpoints alone.
class JvmtiContendedEvents : public ContendedEventSwitch {
 public:
  explicit JvmtiContendedEvents(jvmtiEnv* jvmti) : jvmti_(jvmti) {}
  bool set_contended_events(bool on) override;
  bool set_other_events(bool on) override;
  void set_enabled(bool monitor_events, bool breakpoints) {
    monitor_ = monitor_events;
    breakpoints_ = breakpoints;
  }

 private:
  jvmtiEnv* jvmti_;
  bool monitor_ = true;
  bool breakpoints_ = false;
};

}  // namespace jvmsight
