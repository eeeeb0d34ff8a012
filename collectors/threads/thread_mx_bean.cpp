#include "collectors/threads/thread_mx_bean.h"

#include "common/jvm_calls.h"
#include "common/log.h"

namespace jvmsight {

bool ThreadMxBean::resolve(JNIEnv* jni) {
  if (tried_) return bean_ != nullptr;
  tried_ = true;
  LocalFrame frame(jni, 8);
  jclass factory = jni->FindClass("java/lang/management/ManagementFactory");
  if (!jni_ok(jni, "FindClass(ManagementFactory)") || factory == nullptr) return false;
  jmethodID get = jni->GetStaticMethodID(factory, "getThreadMXBean", "()Ljava/lang/management/ThreadMXBean;");
  if (!jni_ok(jni, "GetStaticMethodID(getThreadMXBean)") || get == nullptr) return false;
  jobject bean = jni->CallStaticObjectMethod(factory, get);
  if (!jni_ok(jni, "ManagementFactory.getThreadMXBean()") || bean == nullptr) return false;
  jclass iface = jni->FindClass("java/lang/management/ThreadMXBean");
  if (!jni_ok(jni, "FindClass(ThreadMXBean)") || iface == nullptr) return false;
  thread_count_ = jni->GetMethodID(iface, "getThreadCount", "()I");
  daemon_count_ = jni->GetMethodID(iface, "getDaemonThreadCount", "()I");
  peak_count_ = jni->GetMethodID(iface, "getPeakThreadCount", "()I");
  started_count_ = jni->GetMethodID(iface, "getTotalStartedThreadCount", "()J");
  if (!jni_ok(jni, "ThreadMXBean methods")) return false;
  bean_ = jni->NewGlobalRef(bean);
  return bean_ != nullptr;
}

jobject ThreadMxBean::bean(JNIEnv* jni) { return resolve(jni) ? bean_ : nullptr; }

std::optional<ThreadCounts> ThreadMxBean::counts(JNIEnv* jni) {
  if (!resolve(jni)) return std::nullopt;
  ThreadCounts c;
  c.live = jni->CallIntMethod(bean_, thread_count_);
  c.daemon = jni->CallIntMethod(bean_, daemon_count_);
  c.peak = jni->CallIntMethod(bean_, peak_count_);
  c.started = jni->CallLongMethod(bean_, started_count_);
  if (!jni_ok(jni, "ThreadMXBean counters")) return std::nullopt;
  return c;
}

}  // namespace jvmsight
