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
 *   javapass  an agent thread that runs jvmsight's block-profile pass over
 *             parked virtual threads (JvmsightParkedScan.parkedVirtual,
 *             1,024 at most, its classes defined from FLOOR_CLASSES, the
 *             build's lock-scan-classes) paced as the block profile paces
 *             it: again after max(10 ms, 200 times its CPU). Whether an
 *             agent thread running that Java costs the carriers.
 * Built by the bench against a JDK 21+ jvmti.h.
 */
#include <jvmti.h>
#include <stdio.h>
#include <stdlib.h>
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

static jclass define_boot_class(JNIEnv* jni, const char* dir, const char* name) {
  static unsigned char bytes[1 << 20];  // the agent thread's alone
  char path[4096];
  snprintf(path, sizeof path, "%s/java/util/concurrent/locks/%s.class", dir, name);
  FILE* f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "floor_agent: cannot read %s\n", path);
    return NULL;
  }
  size_t n = fread(bytes, 1, sizeof bytes, f);
  fclose(f);
  char binary[256];
  snprintf(binary, sizeof binary, "java/util/concurrent/locks/%s", name);
  jclass c = (*jni)->DefineClass(jni, binary, NULL, (const jbyte*)bytes, (jsize)n);
  if ((*jni)->ExceptionCheck(jni)) {
    (*jni)->ExceptionDescribe(jni);
    return NULL;
  }
  return c;
}

static long long thread_cpu_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1000000000LL + t.tv_nsec;
}

// As jvmsight's JavaLockScan does: both warm-ups, then the virtual rounds.
static void JNICALL java_pass(jvmtiEnv* jvmti, JNIEnv* jni, void* arg) {
  const char* dir = getenv("FLOOR_CLASSES");
  if (dir == NULL || define_boot_class(jni, dir, "JvmsightUnsafe") == NULL) {
    fprintf(stderr, "floor_agent: javapass needs FLOOR_CLASSES\n");
    return;
  }
  jclass scan = define_boot_class(jni, dir, "JvmsightLockScan");
  jclass parked = scan ? define_boot_class(jni, dir, "JvmsightParkedScan") : NULL;
  if (parked == NULL) return;
  (*jni)->CallStaticIntMethod(jni, scan, (*jni)->GetStaticMethodID(jni, scan, "warmUp", "(I)I"), 6000);
  (*jni)->CallStaticIntMethod(jni, parked, (*jni)->GetStaticMethodID(jni, parked, "warmUp", "(I)I"), 2000);
  jmethodID round = (*jni)->GetStaticMethodID(jni, parked, "parkedVirtual", "([Ljava/lang/Thread;[J[I[I)I");
  if ((*jni)->ExceptionCheck(jni) || round == NULL) {
    (*jni)->ExceptionDescribe(jni);
    return;
  }
  const jsize max = 1024;
  jobjectArray threads = (*jni)->NewObjectArray(jni, max, (*jni)->FindClass(jni, "java/lang/Thread"), NULL);
  jlongArray ids = (*jni)->NewLongArray(jni, max);
  jintArray tokens = (*jni)->NewIntArray(jni, max), locks = (*jni)->NewIntArray(jni, max);
  for (;;) {
    long long cpu = thread_cpu_ns();
    (*jni)->CallStaticIntMethod(jni, parked, round, threads, ids, tokens, locks);
    (*jni)->ExceptionClear(jni);
    cpu = thread_cpu_ns() - cpu;
    long long wait = cpu * 200 > 10000000LL ? cpu * 200 : 10000000LL;
    struct timespec ts = {wait / 1000000000LL, wait % 1000000000LL};
    nanosleep(&ts, NULL);
  }
}

static void JNICALL on_vm_init(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  jclass c = (*jni)->FindClass(jni, "java/lang/Thread");
  jmethodID init = (*jni)->GetMethodID(jni, c, "<init>", "(Ljava/lang/String;)V");
  jthread t = (*jni)->NewObject(jni, c, init, (*jni)->NewStringUTF(jni, "floor-javapass"));
  if (t == NULL || (*jvmti)->RunAgentThread(jvmti, t, java_pass, NULL, JVMTI_THREAD_NORM_PRIORITY) != JVMTI_ERROR_NONE)
    fprintf(stderr, "floor_agent: no javapass thread\n");
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
  int javapass = has(options, "javapass");
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
  if (!events && !bpevent && !waitevent && !javapass) return JNI_OK;  // the floor itself: nothing enabled
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
  if (javapass) wanted[n++] = JVMTI_EVENT_VM_INIT;
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
