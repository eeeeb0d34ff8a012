// A JVM TI agent that enables the monitor events jvmsight uses, with
// callbacks that return at once: what HotSpot's own event posting costs a
// workload, the floor under any agent that records contention with events.
// With the option toggle=N (milliseconds), an agent thread instead turns
// MonitorContendedEnter/Entered off and on again every N ms, as jvmsight's
// duty cycling does, and prints at exit what one switch took:
// "TOGGLE switches=<n> mean_us=<..> max_us=<..>".
// Built for the benches only; not shipped.
#include <jvmti.h>
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

void JNICALL contended_enter(jvmtiEnv*, JNIEnv*, jthread, jobject) {}
void JNICALL contended_entered(jvmtiEnv*, JNIEnv*, jthread, jobject) {}
void JNICALL wait(jvmtiEnv*, JNIEnv*, jthread, jobject, jlong) {}
void JNICALL waited(jvmtiEnv*, JNIEnv*, jthread, jobject, jboolean) {}

long toggle_ms = 0;
long switches = 0;
double total_us = 0, max_us = 0;

double now_us() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

bool switch_events(jvmtiEnv* jvmti, jvmtiEventMode mode) {
  double start = now_us();
  bool ok = jvmti->SetEventNotificationMode(mode, JVMTI_EVENT_MONITOR_CONTENDED_ENTER, nullptr) == JVMTI_ERROR_NONE &&
            jvmti->SetEventNotificationMode(mode, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED, nullptr) == JVMTI_ERROR_NONE;
  double took = now_us() - start;
  ++switches;
  total_us += took;
  max_us = std::max(max_us, took);
  return ok;
}

void JNICALL toggler(jvmtiEnv* jvmti, JNIEnv*, void*) {
  timespec pause{toggle_ms / 1000, (toggle_ms % 1000) * 1'000'000};
  for (bool on = false;; on = !on) {
    nanosleep(&pause, nullptr);
    if (!switch_events(jvmti, on ? JVMTI_ENABLE : JVMTI_DISABLE)) return;
  }
}

void JNICALL vm_init(jvmtiEnv* jvmti, JNIEnv* jni, jthread) {
  jclass cls = jni->FindClass("java/lang/Thread");
  jmethodID init = jni->GetMethodID(cls, "<init>", "()V");
  jthread t = jni->NewObject(cls, init);
  jvmti->RunAgentThread(t, toggler, nullptr, JVMTI_THREAD_NORM_PRIORITY);
}

void JNICALL vm_death(jvmtiEnv*, JNIEnv*) {
  std::printf("TOGGLE switches=%ld mean_us=%.1f max_us=%.1f\n", switches, switches ? total_us / switches : 0.0, max_us);
  std::fflush(stdout);
}

}  // namespace

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
  if (options && std::strncmp(options, "toggle=", 7) == 0) toggle_ms = std::max(1L, std::atol(options + 7));
  jvmtiEnv* jvmti = nullptr;
  if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_1_2) != JNI_OK) return JNI_ERR;
  jvmtiCapabilities caps{};
  caps.can_generate_monitor_events = 1;
  if (jvmti->AddCapabilities(&caps) != JVMTI_ERROR_NONE) return JNI_ERR;
  jvmtiEventCallbacks cb{};
  cb.MonitorContendedEnter = contended_enter;
  cb.MonitorContendedEntered = contended_entered;
  cb.MonitorWait = wait;
  cb.MonitorWaited = waited;
  cb.VMInit = vm_init;
  cb.VMDeath = vm_death;
  if (jvmti->SetEventCallbacks(&cb, sizeof(cb)) != JVMTI_ERROR_NONE) return JNI_ERR;
  for (jvmtiEvent e : {JVMTI_EVENT_MONITOR_CONTENDED_ENTER, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED,
                       JVMTI_EVENT_MONITOR_WAIT, JVMTI_EVENT_MONITOR_WAITED})
    if (jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr) != JVMTI_ERROR_NONE) return JNI_ERR;
  if (toggle_ms > 0) {
    for (jvmtiEvent e : {JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH})
      if (jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr) != JVMTI_ERROR_NONE) return JNI_ERR;
  }
  return JNI_OK;
}
