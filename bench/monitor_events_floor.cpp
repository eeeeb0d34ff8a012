// A JVM TI agent that enables the monitor events jvmsight uses, with
// callbacks that return at once: what HotSpot's own event posting costs a
// workload, the floor under any agent that records contention with events.
// Built for bench/contention_bench.sh only; not shipped.
#include <jvmti.h>

#include <initializer_list>

namespace {

void JNICALL contended_enter(jvmtiEnv*, JNIEnv*, jthread, jobject) {}
void JNICALL contended_entered(jvmtiEnv*, JNIEnv*, jthread, jobject) {}
void JNICALL wait(jvmtiEnv*, JNIEnv*, jthread, jobject, jlong) {}
void JNICALL waited(jvmtiEnv*, JNIEnv*, jthread, jobject, jboolean) {}

}  // namespace

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char*, void*) {
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
  if (jvmti->SetEventCallbacks(&cb, sizeof(cb)) != JVMTI_ERROR_NONE) return JNI_ERR;
  for (jvmtiEvent e : {JVMTI_EVENT_MONITOR_CONTENDED_ENTER, JVMTI_EVENT_MONITOR_CONTENDED_ENTERED,
                       JVMTI_EVENT_MONITOR_WAIT, JVMTI_EVENT_MONITOR_WAITED})
    if (jvmti->SetEventNotificationMode(JVMTI_ENABLE, e, nullptr) != JVMTI_ERROR_NONE) return JNI_ERR;
  return JNI_OK;
}
