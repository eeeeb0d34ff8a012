/*
 * The floor for bench/vt_overhead.sh: a JVM TI agent that loads and does
 * nothing, as every agent costs at least that much. Options, joined by '+',
 * add one piece of what a virtual-thread-aware agent may ask for, so each
 * piece's cost can be measured alone:
 *   vt        the can_support_virtual_threads capability
 *   vtevents  that capability plus VirtualThreadStart/End events, whose
 *             callbacks bump an atomic counter (as jvmsight's did)
 *   caps      the other capabilities jvmsight asks for at startup (GC and
 *             monitor events, monitor queries, tags, breakpoints,
 *             bytecodes), no event enabled; or one of them: breakpoint,
 *             bytecodes, monitor, contended, owned, monitorinfo, tags, gc
 *   bpevent   the Breakpoint event enabled (no breakpoint set), and
 *   waitevent MonitorWait/Waited enabled, each with a callback that does
 *             nothing: what enabling an event HotSpot can filter per thread
 *             costs, with their capabilities
 *   thread    an agent thread (RunAgentThread, started at VMInit) that
 *             sleeps for good: what any agent with a thread of its own
 *             costs. On two carriers one thread more moves park from one
 *             of its speeds to another (BENCHMARKS.md, "Layouts").
 * Built by the bench against a JDK 21+ jvmti.h.
 */
#include <jvmti.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile long started, ended;

static void JNICALL on_start(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  __atomic_fetch_add(&started, 1, __ATOMIC_RELAXED);
}

static void JNICALL on_end(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  __atomic_fetch_add(&ended, 1, __ATOMIC_RELEASE);
}

static void JNICALL on_breakpoint(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jmethodID method, jlocation location) {}

static void JNICALL on_wait(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jobject object, jlong timeout) {}

static void JNICALL on_waited(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread, jobject object, jboolean timed_out) {}

// The thread option's agent thread: sleeps for good, never entering Java.
static void JNICALL idle_thread(jvmtiEnv* jvmti, JNIEnv* jni, void* arg) {
  for (;;) {
    struct timespec ts = {3600, 0};
    nanosleep(&ts, NULL);
  }
}

static void JNICALL on_vm_init(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  jclass c = (*jni)->FindClass(jni, "java/lang/Thread");
  jmethodID init = (*jni)->GetMethodID(jni, c, "<init>", "(Ljava/lang/String;)V");
  jthread t = (*jni)->NewObject(jni, c, init, (*jni)->NewStringUTF(jni, "floor-thread"));
  if (t == NULL ||
      (*jvmti)->RunAgentThread(jvmti, t, idle_thread, NULL, JVMTI_THREAD_NORM_PRIORITY) != JVMTI_ERROR_NONE)
    fprintf(stderr, "floor_agent: no agent thread\n");
}

static int has(const char* options, const char* word) {
  size_t n = strlen(word);
  for (const char* p = options; p && (p = strstr(p, word)) != NULL; p += n)
    if ((p == options || p[-1] == '+') && (p[n] == '\0' || p[n] == '+')) return 1;
  return 0;
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void* reserved) {
  jvmtiEnv* jvmti = NULL;
  if ((*vm)->GetEnv(vm, (void**)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) return JNI_ERR;
  int events = has(options, "vtevents");
  int bpevent = has(options, "bpevent"), waitevent = has(options, "waitevent");
  int thread = has(options, "thread");
  jvmtiCapabilities caps;
  memset(&caps, 0, sizeof caps);
  caps.can_support_virtual_threads = events || has(options, "vt");
  int all = has(options, "caps");
  caps.can_generate_garbage_collection_events = all || has(options, "gc");
  caps.can_get_current_contended_monitor = all || has(options, "contended");
  caps.can_get_owned_monitor_info = all || has(options, "owned");
  caps.can_get_monitor_info = all || has(options, "monitorinfo");
  caps.can_generate_monitor_events = all || waitevent || has(options, "monitor");
  caps.can_tag_objects = all || has(options, "tags");
  caps.can_generate_breakpoint_events = all || bpevent || has(options, "breakpoint");
  caps.can_get_bytecodes = all || has(options, "bytecodes");
  jvmtiCapabilities none;
  memset(&none, 0, sizeof none);
  if (memcmp(&caps, &none, sizeof caps) != 0 && (*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "floor_agent: capabilities refused\n");
    return JNI_ERR;
  }
  if (!events && !bpevent && !waitevent && !thread) return JNI_OK;  // the floor itself: nothing enabled
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.VirtualThreadStart = on_start;
  cb.VirtualThreadEnd = on_end;
  cb.Breakpoint = on_breakpoint;
  cb.MonitorWait = on_wait;
  cb.MonitorWaited = on_waited;
  cb.VMInit = on_vm_init;
  jvmtiEvent wanted[6];
  int n = 0;
  if (events) {
    wanted[n++] = JVMTI_EVENT_VIRTUAL_THREAD_START;
    wanted[n++] = JVMTI_EVENT_VIRTUAL_THREAD_END;
  }
  if (bpevent) wanted[n++] = JVMTI_EVENT_BREAKPOINT;
  if (thread) wanted[n++] = JVMTI_EVENT_VM_INIT;
  if (waitevent) {
    wanted[n++] = JVMTI_EVENT_MONITOR_WAIT;
    wanted[n++] = JVMTI_EVENT_MONITOR_WAITED;
  }
  if ((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "floor_agent: event callbacks refused\n");
    return JNI_ERR;
  }
  for (int i = 0; i < n; i++) {
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, wanted[i], NULL) != JVMTI_ERROR_NONE) {
      fprintf(stderr, "floor_agent: event %d refused\n", (int)wanted[i]);
      return JNI_ERR;
    }
  }
  return JNI_OK;
}
