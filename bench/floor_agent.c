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
 * Built by the bench against a JDK 21+ jvmti.h.
 */
#include <jvmti.h>
#include <stdio.h>
#include <string.h>

static volatile long started, ended;

static void JNICALL on_start(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  __atomic_fetch_add(&started, 1, __ATOMIC_RELAXED);
}

static void JNICALL on_end(jvmtiEnv* jvmti, JNIEnv* jni, jthread thread) {
  __atomic_fetch_add(&ended, 1, __ATOMIC_RELEASE);
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
  jvmtiCapabilities caps;
  memset(&caps, 0, sizeof caps);
  caps.can_support_virtual_threads = events || has(options, "vt");
  int all = has(options, "caps");
  caps.can_generate_garbage_collection_events = all || has(options, "gc");
  caps.can_get_current_contended_monitor = all || has(options, "contended");
  caps.can_get_owned_monitor_info = all || has(options, "owned");
  caps.can_get_monitor_info = all || has(options, "monitorinfo");
  caps.can_generate_monitor_events = all || has(options, "monitor");
  caps.can_tag_objects = all || has(options, "tags");
  caps.can_generate_breakpoint_events = all || has(options, "breakpoint");
  caps.can_get_bytecodes = all || has(options, "bytecodes");
  jvmtiCapabilities none;
  memset(&none, 0, sizeof none);
  if (memcmp(&caps, &none, sizeof caps) == 0) return JNI_OK;  // the floor itself
  if ((*jvmti)->AddCapabilities(jvmti, &caps) != JVMTI_ERROR_NONE) {
    fprintf(stderr, "floor_agent: capabilities refused\n");
    return JNI_ERR;
  }
  if (!events) return JNI_OK;
  jvmtiEventCallbacks cb;
  memset(&cb, 0, sizeof cb);
  cb.VirtualThreadStart = on_start;
  cb.VirtualThreadEnd = on_end;
  if ((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof cb) != JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VIRTUAL_THREAD_START, NULL) !=
          JVMTI_ERROR_NONE ||
      (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VIRTUAL_THREAD_END, NULL) !=
          JVMTI_ERROR_NONE) {
    fprintf(stderr, "floor_agent: virtual-thread events refused\n");
    return JNI_ERR;
  }
  return JNI_OK;
}
