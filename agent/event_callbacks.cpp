#include "agent/event_callbacks.h"

#include <exception>

#include "agent/agent.h"
#include "collectors/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

// JDK 21+ events, missing from the JDK 17 jvmti.h we build against.
constexpr auto event_virtual_thread_start = static_cast<jvmtiEvent>(87);
constexpr auto event_virtual_thread_end = static_cast<jvmtiEvent>(88);

// The JDK 21 callback table is the JDK 17 one plus two slots; a JDK 17 VM
// copies only the part it knows.
struct EventCallbacks {
  jvmtiEventCallbacks base;
  void(JNICALL* virtual_thread_start)(jvmtiEnv*, JNIEnv*, jthread);
  void(JNICALL* virtual_thread_end)(jvmtiEnv*, JNIEnv*, jthread);
};

Agent* the_agent = nullptr;  // set once before any event is enabled

void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* jni, jthread) {
  try {
    the_agent->on_vm_init(jni);
  } catch (const std::exception& e) {
    log::error("start failed: ", e.what(), "; the JVM continues without jvmsight");
  } catch (...) {
    log::error("start failed; the JVM continues without jvmsight");
  }
}

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  try {
    the_agent->on_vm_death();
  } catch (...) {
  }
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv*, jthread) { the_agent->thread_roster().on_thread_start(); }

// The VM is stopped: GcPauseRecorder only reads clocks and writes atomics.
void JNICALL on_gc_start(jvmtiEnv*) { the_agent->gc_pauses().on_start(); }
void JNICALL on_gc_finish(jvmtiEnv*) { the_agent->gc_pauses().on_finish(); }

void JNICALL on_virtual_thread_start(jvmtiEnv*, JNIEnv*, jthread) { the_agent->virtual_threads().on_start(); }
void JNICALL on_virtual_thread_end(jvmtiEnv*, JNIEnv*, jthread) { the_agent->virtual_threads().on_end(); }

bool enable(jvmtiEnv* jvmti, jvmtiEvent event, const char* what) {
  return jvmti_ok(jvmti, jvmti->SetEventNotificationMode(JVMTI_ENABLE, event, nullptr), what);
}

}  // namespace

bool install_event_callbacks(jvmtiEnv* jvmti, Agent* agent, const Capabilities& caps, bool live) {
  the_agent = agent;
  EventCallbacks cb{};
  cb.base.VMInit = on_vm_init;
  cb.base.VMDeath = on_vm_death;
  cb.base.ThreadStart = on_thread_start;
  cb.base.GarbageCollectionStart = on_gc_start;
  cb.base.GarbageCollectionFinish = on_gc_finish;
  cb.virtual_thread_start = on_virtual_thread_start;
  cb.virtual_thread_end = on_virtual_thread_end;
  if (!jvmti_ok(jvmti, jvmti->SetEventCallbacks(&cb.base, sizeof(cb)), "SetEventCallbacks")) return false;
  bool ok = enable(jvmti, JVMTI_EVENT_VM_DEATH, "enable VMDeath");
  ok = enable(jvmti, JVMTI_EVENT_THREAD_START, "enable ThreadStart") && ok;
  if (!live) ok = enable(jvmti, JVMTI_EVENT_VM_INIT, "enable VMInit") && ok;
  if (caps.virtual_threads) {
    bool vt = enable(jvmti, event_virtual_thread_start, "enable VirtualThreadStart") &&
              enable(jvmti, event_virtual_thread_end, "enable VirtualThreadEnd");
    agent->virtual_threads().set_supported(vt);
  }
  if (caps.gc_events) {
    bool gc = enable(jvmti, JVMTI_EVENT_GARBAGE_COLLECTION_START, "enable GarbageCollectionStart") &&
              enable(jvmti, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, "enable GarbageCollectionFinish");
    agent->gc_pauses().set_supported(gc);
  }
  if (!agent->gc_pauses().supported())
    log::warn("JVM TI GC events unavailable: GC pauses are not measured (jvm_gc_collection_seconds still is)");
  return ok;
}

}  // namespace jvmsight
