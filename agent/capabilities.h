#pragma once
// Which optional JVM TI capabilities the agent asks for, and what it got.
// Some (e.g. can_get_current_contended_monitor) are only granted in the
// OnLoad phase; an attached agent gets fewer and degrades.
#include <jvmti.h>

namespace jvmsight {

// JDK 21 added can_support_virtual_threads in bits our JDK 17 header leaves
// unnamed; it sits right after can_generate_sampled_object_alloc_events.
// Only read: a JVM that could grant it has virtual threads.
bool has_virtual_thread_support(const jvmtiCapabilities& caps);

struct Capabilities {
  bool virtual_threads = false;  // the JVM has them (JDK 21+); nothing asked of it
  bool gc_events = false;        // GarbageCollectionStart/Finish
  // OnLoad only in HotSpot: the cheap deadlock check needs both.
  bool contended_monitor = false;  // GetCurrentContendedMonitor
  bool owned_monitors = false;     // GetOwnedMonitorInfo
  // Granted at any time.
  bool monitor_info = false;    // GetObjectMonitorUsage
  bool monitor_events = false;  // MonitorContendedEnter/Entered, MonitorWait/Waited
  bool tag_objects = false;     // SetTag/GetObjectsWithTags: classes of contended locks
  bool breakpoints = false;     // Breakpoint events and GetBytecodes: virtual-thread pinnings (21+)
  // Asked for and not granted: attached (startup only), or another agent holds them (one at a time).
  bool breakpoints_refused = false;
  bool cheap_deadlock_check() const { return contended_monitor && owned_monitors; }
};

// Adds every wanted capability the JVM can give now (breakpoints only if
// want_breakpoints; never can_support_virtual_threads); returns what was
// granted.
Capabilities acquire_capabilities(jvmtiEnv* jvmti, bool want_breakpoints);

}  // namespace jvmsight
