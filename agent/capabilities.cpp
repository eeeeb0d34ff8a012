#include "agent/capabilities.h"

#include <cstring>

#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

// Bit index (little-endian byte order) of the capability after
// can_generate_sampled_object_alloc_events, found from the compiler's layout.
size_t virtual_thread_bit() {
  jvmtiCapabilities probe{};
  probe.can_generate_sampled_object_alloc_events = 1;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&probe);
  for (size_t i = 0; i < sizeof(probe) * 8; ++i)
    if (bytes[i / 8] & (1u << (i % 8))) return i + 1;
  return 0;
}

}  // namespace

bool has_virtual_thread_support(const jvmtiCapabilities& caps) {
  static const size_t bit = virtual_thread_bit();
  const auto* bytes = reinterpret_cast<const unsigned char*>(&caps);
  return bytes[bit / 8] & (1u << (bit % 8));
}

Capabilities acquire_capabilities(jvmtiEnv* jvmti, bool want_breakpoints) {
  jvmtiCapabilities potential{};
  Capabilities granted;
  if (!jvmti_ok(jvmti, jvmti->GetPotentialCapabilities(&potential), "GetPotentialCapabilities")) return granted;
  // A JVM that could support virtual threads has them (JDK 21+). The
  // capability itself makes HotSpot report every mount and unmount to JVM TI
  // (up to 15% of a virtual-thread workload: docs/BENCHMARKS.md), and
  // nothing of ours needs it: breakpoints, monitor events, thread-local
  // storage and the thread queries work on virtual threads without it (JDK
  // 21 and 25, checked), and their starts come from the JVM's thread ids
  // (VirtualThreadStarts).
  granted.virtual_threads = has_virtual_thread_support(potential);
  jvmtiCapabilities wanted{};
  if (granted.virtual_threads && want_breakpoints) {
    // Only where virtual threads can pin: the pinning probes (and GetBytecodes
    // to place them). HotSpot then keeps locals live in compiled code, as
    // for a debugger: pinning=off leaves it out (docs/METRICS.md).
    wanted.can_generate_breakpoint_events = potential.can_generate_breakpoint_events;
    wanted.can_get_bytecodes = potential.can_get_bytecodes;
  }
  wanted.can_generate_garbage_collection_events = potential.can_generate_garbage_collection_events;
  wanted.can_get_current_contended_monitor = potential.can_get_current_contended_monitor;
  wanted.can_get_owned_monitor_info = potential.can_get_owned_monitor_info;
  wanted.can_get_monitor_info = potential.can_get_monitor_info;
  wanted.can_generate_monitor_events = potential.can_generate_monitor_events;
  wanted.can_tag_objects = potential.can_tag_objects;
  // Contention profiles and lock-order call sites name frames by file and
  // line (no cost: HotSpot keeps both anyway).
  wanted.can_get_line_numbers = potential.can_get_line_numbers;
  wanted.can_get_source_file_name = potential.can_get_source_file_name;
  if (!jvmti_ok(jvmti, jvmti->AddCapabilities(&wanted), "AddCapabilities")) return granted;
  jvmtiCapabilities have{};
  if (!jvmti_ok(jvmti, jvmti->GetCapabilities(&have), "GetCapabilities")) return granted;
  granted.gc_events = have.can_generate_garbage_collection_events;
  granted.contended_monitor = have.can_get_current_contended_monitor;
  granted.owned_monitors = have.can_get_owned_monitor_info;
  granted.monitor_info = have.can_get_monitor_info;
  granted.monitor_events = have.can_generate_monitor_events;
  granted.tag_objects = have.can_tag_objects;
  granted.breakpoints = have.can_generate_breakpoint_events && have.can_get_bytecodes;
  granted.breakpoints_refused = granted.virtual_threads && want_breakpoints && !granted.breakpoints;
  return granted;
}

}  // namespace jvmsight
