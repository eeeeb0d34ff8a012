#include "collectors/runtime/os_mx_bean.h"

#include "common/jvm_calls.h"

namespace jvmsight {
namespace {

std::optional<double> non_negative(double v) { return v >= 0 ? std::optional<double>(v) : std::nullopt; }

}  // namespace

bool OsMxBean::resolve(JNIEnv* jni) {
  if (tried_) return bean_ != nullptr;
  tried_ = true;
  LocalFrame frame(jni, 16);
  jclass runtime = jni->FindClass("java/lang/Runtime");
  jmethodID get_runtime = runtime ? jni->GetStaticMethodID(runtime, "getRuntime", "()Ljava/lang/Runtime;") : nullptr;
  processors_ = runtime ? jni->GetMethodID(runtime, "availableProcessors", "()I") : nullptr;
  if (!jni_ok(jni, "Runtime.availableProcessors") || get_runtime == nullptr || processors_ == nullptr) return false;
  jobject r = jni->CallStaticObjectMethod(runtime, get_runtime);
  if (!jni_ok(jni, "Runtime.getRuntime") || r == nullptr) return false;
  runtime_ = jni->NewGlobalRef(r);

  jclass factory = jni->FindClass("java/lang/management/ManagementFactory");
  jclass os = jni->FindClass("java/lang/management/OperatingSystemMXBean");
  if (!jni_ok(jni, "OperatingSystemMXBean") || factory == nullptr || os == nullptr) return false;
  load_average_ = jni->GetMethodID(os, "getSystemLoadAverage", "()D");
  jmethodID get =
      jni->GetStaticMethodID(factory, "getOperatingSystemMXBean", "()Ljava/lang/management/OperatingSystemMXBean;");
  if (!jni_ok(jni, "getOperatingSystemMXBean") || get == nullptr) return false;
  jobject bean = jni->CallStaticObjectMethod(factory, get);
  if (!jni_ok(jni, "getOperatingSystemMXBean") || bean == nullptr) return false;
  bean_ = jni->NewGlobalRef(bean);
  // HotSpot's bean also implements com.sun.management's interface.
  jclass extended = jni->FindClass("com/sun/management/OperatingSystemMXBean");
  if (!jni_ok(jni, "com.sun.management.OperatingSystemMXBean") || extended == nullptr ||
      !jni->IsInstanceOf(bean_, extended))
    return true;
  process_cpu_ = jni->GetMethodID(extended, "getProcessCpuLoad", "()D");
  if (!jni_ok(jni, "getProcessCpuLoad")) process_cpu_ = nullptr;
  // getCpuLoad since JDK 14; getSystemCpuLoad before (deprecated since).
  // Its absence (NoSuchMethodError) is expected before 14: cleared, not logged.
  system_cpu_ = jni->GetMethodID(extended, "getCpuLoad", "()D");
  if (jni->ExceptionCheck()) {
    jni->ExceptionClear();
    system_cpu_ = nullptr;
  }
  if (system_cpu_ == nullptr) {
    system_cpu_ = jni->GetMethodID(extended, "getSystemCpuLoad", "()D");
    if (!jni_ok(jni, "getSystemCpuLoad")) system_cpu_ = nullptr;
  }
  return true;
}

OsReading OsMxBean::read(JNIEnv* jni) {
  OsReading out;
  resolve(jni);
  if (runtime_ == nullptr) return out;
  jint processors = jni->CallIntMethod(runtime_, processors_);
  if (jni_ok(jni, "Runtime.availableProcessors")) out.available_processors = processors;
  if (bean_ == nullptr) return out;
  jdouble load = jni->CallDoubleMethod(bean_, load_average_);
  if (jni_ok(jni, "getSystemLoadAverage")) out.load_average_1m = non_negative(load);
  if (process_cpu_) {
    jdouble v = jni->CallDoubleMethod(bean_, process_cpu_);
    if (jni_ok(jni, "getProcessCpuLoad")) out.process_cpu_load = non_negative(v);
  }
  if (system_cpu_) {
    jdouble v = jni->CallDoubleMethod(bean_, system_cpu_);
    if (jni_ok(jni, "getCpuLoad")) out.system_cpu_load = non_negative(v);
  }
  return out;
}

}  // namespace jvmsight
