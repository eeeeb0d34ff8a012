#pragma once
// What the JVM says about the processors and the machine's load: the
// processors it may use (Runtime.availableProcessors, which honours
// container CPU limits), recent process and system CPU utilization
// (com.sun.management.OperatingSystemMXBean) and the one-minute load
// average. These feed jvm.cpu.count, jvm.cpu.recent_utilization,
// jvm.system.cpu.utilization and jvm.system.cpu.load_1m, read where the
// OpenTelemetry Java agent reads them. On the agent thread, at scrape time.
#include <jni.h>

#include <optional>

namespace jvmsight {

// Each empty when the JVM does not give it (or says "not available" with a
// negative value).
struct OsReading {
  std::optional<double> available_processors;
  std::optional<double> process_cpu_load;  // [0, 1]
  std::optional<double> system_cpu_load;   // [0, 1]
  std::optional<double> load_average_1m;
};

class OsMxBean {
 public:
  OsReading read(JNIEnv* jni);

 private:
  bool resolve(JNIEnv* jni);

  bool tried_ = false;
  jobject runtime_ = nullptr;  // global refs
  jobject bean_ = nullptr;
  jmethodID processors_ = nullptr, load_average_ = nullptr;
  jmethodID process_cpu_ = nullptr, system_cpu_ = nullptr;  // null: not a com.sun.management bean
};

}  // namespace jvmsight
