#include "agent/event_callbacks.h"

#include <cstdint>
#include <exception>

#include "common/clock.h"
#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {
namespace {

// Set once, before any event is enabled; callbacks have no other way to
// reach what they feed.
EventSinks sinks;

void JNICALL on_vm_init(jvmtiEnv*, JNIEnv* jni, jthread) {
  try {
    sinks.vm_init(jni);
  } catch (const std::exception& e) {
    log::error("start failed: ", e.what(), "; the JVM continues without jvmsight");
  } catch (...) {
    log::error("start failed; the JVM continues without jvmsight");
  }
}

void JNICALL on_vm_death(jvmtiEnv*, JNIEnv*) {
  try {
    sinks.vm_death();
  } catch (...) {
  }
}

// The VM is stopped: GcPauseRecorder only reads clocks and writes atomics.
void JNICALL on_gc_start(jvmtiEnv*) { sinks.gc_pauses->on_start(); }
void JNICALL on_gc_finish(jvmtiEnv*) { sinks.gc_pauses->on_finish(); }

// Monitor events run on application threads, on every contended entry:
// CLOCK_MONOTONIC (vDSO), JVM TI thread-local storage and relaxed atomics
// only. The start lives in the thread-local storage pointer itself (no
// allocation; layout in ThreadStamp), keyed to the java.lang.Thread, so it
// stays right for virtual threads that move between carriers. The lock's
// table slot is found at MonitorContendedEnter, while the thread is about to
// block anyway: MonitorContendedEntered is posted while the thread owns the
// monitor, so everything done there lengthens the critical section the other
// waiters queue behind. Above the contention_sampling rate the agent thread
// turns both events off for most of the time (ContentionDutyCycle), so no
// callback runs at all then.
void* as_storage(uint64_t v) { return reinterpret_cast<void*>(static_cast<uintptr_t>(v)); }

// The stamp the matching Enter/Wait stored; 0 if none.
uint64_t read_stamp(jvmtiEnv* jvmti) {
  void* raw = nullptr;
  if (jvmti->GetThreadLocalStorage(nullptr, &raw) != JVMTI_ERROR_NONE) return 0;
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(raw));
}

// The mutex profile: for the entries MonitorStackRecorder::walk_at picks,
// the waiting thread's own stack (a JVM TI call that allocates nothing, into
// this frame) is interned while it is about to block anyway, never at
// Entered; its id (or not_walked) waits in the profile environment's
// thread-local word, a word of its own beside the stamp.
void note_waiting_stack(jvmtiEnv* jvmti, jthread thread, uint32_t lock_slot) {
  MonitorStackRecorder& stacks = *sinks.monitor_stacks;
  uint64_t word = MonitorStackRecorder::not_walked;
  const uint32_t shift = stacks.walk_shift();
  // Below the rate (shift 0) every entry is walked: no draw, no clock read.
  const uint64_t random = shift == 0 ? 0 : wait_random(monotonic_ns(), reinterpret_cast<uintptr_t>(thread));
  const int32_t walked_at = stacks.walk_at(shift, lock_slot, random);
  if (walked_at >= 0) {
    jvmtiFrameInfo frames[StackTable::max_depth];
    jint depth = 0;
    // A thread JVM TI gives no stack for (one exiting, on JDK 25) waits with
    // no Java frame, as one whose stack is empty.
    if (jvmti->GetStackTrace(nullptr, 0, StackTable::max_depth, frames, &depth) != JVMTI_ERROR_NONE) depth = 0;
    const uint32_t id = stacks.table().intern(frames, static_cast<uint32_t>(depth));
    word = MonitorStackRecorder::walked(id, static_cast<uint32_t>(walked_at));
  }
  sinks.profile_env->SetThreadLocalStorage(nullptr, as_storage(word));
}

// At Entered, inside the critical section: the sampling decision from the
// wait's length, and only for a kept wait one more thread-local read and
// two counters.
void keep_waiting_stack(uint64_t waited, uint64_t now, uint64_t stamp) {
  MonitorStackRecorder& stacks = *sinks.monitor_stacks;
  const KeptWait kept = sample_wait(waited, stacks.rate_ns(), wait_random(now, stamp));
  if (!kept.kept) return;
  void* word = nullptr;
  if (sinks.profile_env->GetThreadLocalStorage(nullptr, &word) != JVMTI_ERROR_NONE) return;
  stacks.keep(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(word)), kept);
}

void JNICALL on_monitor_contended_enter(jvmtiEnv* jvmti, JNIEnv*, jthread thread, jobject object) {
  // The wait starts now, as the JVM's own BLOCKED time does: what the
  // callback costs the thread is part of it.
  const uint64_t now = monotonic_ns();
  MonitorContentionRecorder& recorder = *sinks.contention;
  recorder.note_blocking();
  jint hash = 0;
  jvmti->GetObjectHashCode(object, &hash);
  auto slot = recorder.slot_of(hash);
  // Once per lock object (its first contention), tag it so the agent thread
  // can find its class; every later event on it touches atomics only.
  if (slot.claimed && sinks.tag_locks) jvmti->SetTag(object, lock_tag(hash));
  if (sinks.monitor_stacks != nullptr) note_waiting_stack(jvmti, thread, slot.index);
  jvmti->SetThreadLocalStorage(nullptr, as_storage(ThreadStamp::enter(now, slot.index)));
}

void JNICALL on_monitor_contended_entered(jvmtiEnv* jvmti, JNIEnv*, jthread thread, jobject) {
  MonitorContentionRecorder& recorder = *sinks.contention;
  const uint64_t stamp = read_stamp(jvmti);
  const uint64_t now = ThreadStamp::is_enter(stamp) ? monotonic_ns() : 0;
  if (now == 0 || !recorder.stamp_usable(stamp, now)) {
    // While the events stay on, a missing start means one began before the
    // agent could see it; while duty cycling, an Enter in an off phase.
    if (recorder.duty_shift() == 0) recorder.record_untimed();
    return;
  }
  const uint64_t waited = ThreadStamp::since(stamp, now);
  recorder.record_contended(ThreadStamp::slot(stamp), waited);
  if (sinks.monitor_stacks != nullptr) keep_waiting_stack(waited, now, stamp);
  if (waited >= recorder.long_wait_ns()) {
    // Rare (a wait of contended_span_min_ms or more): one more non-blocking
    // call, so the agent thread can name the thread.
    jint thread_hash = 0;
    jvmti->GetObjectHashCode(thread, &thread_hash);
    recorder.record_long_wait(ThreadStamp::slot(stamp), now - waited, now, thread_hash);
  }
}

void JNICALL on_monitor_wait(jvmtiEnv* jvmti, JNIEnv*, jthread, jobject, jlong) {
  jvmti->SetThreadLocalStorage(nullptr, as_storage(ThreadStamp::wait(monotonic_ns())));
}

void JNICALL on_monitor_waited(jvmtiEnv* jvmti, JNIEnv*, jthread, jobject, jboolean) {
  uint64_t stamp = read_stamp(jvmti);
  if (!ThreadStamp::is_wait(stamp)) return;
  const uint64_t now = monotonic_ns();
  const uint64_t waited = ThreadStamp::since(stamp, now);
  // Duty cycled (JDK 21, virtual threads started fast): only a wait begun
  // in this on phase, standing for 2^k.
  const EventPhase phase = sinks.contention->others_phase();
  if (phase.usable(waited, now)) sinks.contention->record_wait(waited, phase.weight());
}

// Breakpoints are set only by the pinning probes (agent/pinning_probes.cpp),
// in methods that run only while a virtual thread pins. The word lives in
// the pinned virtual thread's storage, which its carrier keeps until the
// park ends; PinStamp's layout never matches a ThreadStamp.
void JNICALL on_breakpoint(jvmtiEnv* jvmti, JNIEnv*, jthread, jmethodID method, jlocation location) {
  PinningRecorder& recorder = *sinks.pinning;
  const PinningRecorder::Probe* probe = recorder.probe_at(method, location);
  if (probe == nullptr) return;
  const uint64_t stamp = read_stamp(jvmti);
  const uint64_t next = recorder.on_probe(*probe, stamp, monotonic_ns(), sinks.contention->others_phase());
  if (next != stamp) jvmti->SetThreadLocalStorage(nullptr, as_storage(next));
}

void JNICALL on_thread_start(jvmtiEnv*, JNIEnv*, jthread) { sinks.threads->on_thread_start(); }
// Enabled only for the thread pools' CPU (ended_thread_cpu): on the ending
// thread, its own CPU clock (a system call) and its identity hash, into a
// fixed ring. The roster needs no ThreadEnd: it sees an ended thread's
// terminated status.
void JNICALL on_thread_end(jvmtiEnv* jvmti, JNIEnv*, jthread thread) {
  jint hash = 0;
  jvmti->GetObjectHashCode(thread, &hash);
  sinks.ended_threads->push({hash, clock_ns(CLOCK_THREAD_CPUTIME_ID)});
}

bool enable(jvmtiEnv* jvmti, jvmtiEvent event, const char* what) {
  return jvmti_ok(jvmti, jvmti->SetEventNotificationMode(JVMTI_ENABLE, event, nullptr), what);
}

}  // namespace

bool JvmtiContendedEvents::set_contended_events(bool on) {
  if (!monitor_) return true;
  jvmtiEventMode mode = on ? JVMTI_ENABLE : JVMTI_DISABLE;
  // Entered first when enabling, last when disabling: an Enter is never
  // seen without its Entered being on.
  jvmtiEvent first = on ? JVMTI_EVENT_MONITOR_CONTENDED_ENTERED : JVMTI_EVENT_MONITOR_CONTENDED_ENTER;
  jvmtiEvent second = on ? JVMTI_EVENT_MONITOR_CONTENDED_ENTER : JVMTI_EVENT_MONITOR_CONTENDED_ENTERED;
  return jvmti_->SetEventNotificationMode(mode, first, nullptr) == JVMTI_ERROR_NONE &&
         jvmti_->SetEventNotificationMode(mode, second, nullptr) == JVMTI_ERROR_NONE;
}

bool JvmtiContendedEvents::set_other_events(bool on) {
  jvmtiEventMode mode = on ? JVMTI_ENABLE : JVMTI_DISABLE;
  // Waited before Wait when enabling, after it when disabling, as above.
  jvmtiEvent first = on ? JVMTI_EVENT_MONITOR_WAITED : JVMTI_EVENT_MONITOR_WAIT;
  jvmtiEvent second = on ? JVMTI_EVENT_MONITOR_WAIT : JVMTI_EVENT_MONITOR_WAITED;
  return (!monitor_ || (jvmti_->SetEventNotificationMode(mode, first, nullptr) == JVMTI_ERROR_NONE &&
                        jvmti_->SetEventNotificationMode(mode, second, nullptr) == JVMTI_ERROR_NONE)) &&
         (!breakpoints_ || jvmti_->SetEventNotificationMode(mode, JVMTI_EVENT_BREAKPOINT, nullptr) == JVMTI_ERROR_NONE);
}

bool install_event_callbacks(jvmtiEnv* jvmti, const EventSinks& to, const Capabilities& caps, bool live,
                             bool want_contention, EnabledEvents& enabled) {
  sinks = to;
  jvmtiEventCallbacks cb{};
  cb.VMInit = on_vm_init;
  cb.VMDeath = on_vm_death;
  cb.ThreadStart = on_thread_start;
  cb.GarbageCollectionStart = on_gc_start;
  cb.GarbageCollectionFinish = on_gc_finish;
  cb.ThreadEnd = on_thread_end;
  cb.MonitorContendedEnter = on_monitor_contended_enter;
  cb.MonitorContendedEntered = on_monitor_contended_entered;
  cb.MonitorWait = on_monitor_wait;
  cb.MonitorWaited = on_monitor_waited;
  cb.Breakpoint = on_breakpoint;
  if (!jvmti_ok(jvmti, jvmti->SetEventCallbacks(&cb, sizeof(cb)), "SetEventCallbacks")) return false;
  bool ok = enable(jvmti, JVMTI_EVENT_VM_DEATH, "enable VMDeath");
  if (!live) ok = enable(jvmti, JVMTI_EVENT_VM_INIT, "enable VMInit") && ok;
  if (caps.gc_events) {
    bool gc = enable(jvmti, JVMTI_EVENT_GARBAGE_COLLECTION_START, "enable GarbageCollectionStart") &&
              enable(jvmti, JVMTI_EVENT_GARBAGE_COLLECTION_FINISH, "enable GarbageCollectionFinish");
    sinks.gc_pauses->set_supported(gc);
  }
  if (!sinks.gc_pauses->supported())
    log::warn("JVM TI GC events unavailable: GC pauses are not measured (jvm_gc_collection_seconds still is)");
  enabled.thread_start = enable(jvmti, JVMTI_EVENT_THREAD_START, "enable ThreadStart");
  if (sinks.ended_threads != nullptr && !enable(jvmti, JVMTI_EVENT_THREAD_END, "enable ThreadEnd"))
    sinks.ended_threads = nullptr;
  if (caps.monitor_events && want_contention) {
    enabled.monitor = enable(jvmti, JVMTI_EVENT_MONITOR_CONTENDED_ENTER, "enable MonitorContendedEnter") &&
                      enable(jvmti, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, "enable MonitorContendedEntered") &&
                      enable(jvmti, JVMTI_EVENT_MONITOR_WAIT, "enable MonitorWait") &&
                      enable(jvmti, JVMTI_EVENT_MONITOR_WAITED, "enable MonitorWaited");
  }
  return ok;
}

}  // namespace jvmsight
