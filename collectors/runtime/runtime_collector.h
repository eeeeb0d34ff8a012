#pragma once
// The JVM runtime and process families of client_java (memory, buffer
// pools, classes, compilation, runtime info, process_*), at scrape time on
// the agent thread. process_cpu_seconds_total is the exception: the kernel
// sums every thread's CPU time for it (milliseconds at 10,000 threads), so
// it is read in the background while someone collects and served with its
// age (BackgroundRefresh), never older than two seconds at that size. So,
// on their own schedule, are the OperatingSystemMXBean's readings
// (OsMxBean): HotSpot's getProcessCpuLoad costs milliseconds of CPU at
// 10,000 threads.
#include <jni.h>

#include <optional>

#include "collectors/background_refresh.h"
#include "collectors/collector.h"
#include "collectors/runtime/process_stats.h"
#include "collectors/runtime/runtime_families.h"
#include "collectors/runtime/runtime_mx_beans.h"

namespace jvmsight {

class RuntimeCollector : public Collector {
 public:
  RuntimeCollector(JNIEnv* jni, NameGenerations names) : jni_(jni), identity_(read_identity(jni)), names_(names) {
    // The first read finds the bean and loads its classes (milliseconds):
    // here, not in a refresh whose cost sets the refresh interval.
    os_reading_ = os_.read(jni_);
  }
  void collect(MetricFamilies& out) override {
    auto now = BackgroundRefresh::Clock::now();
    cpu_refresh_.demanded(now);
    os_refresh_.demanded(now);
    if (cpu_refresh_.stale(now)) read_cpu();
    if (os_refresh_.stale(now)) read_os();
    RuntimeReading jvm = beans_.read(jni_);
    jvm.os = os_reading_;
    add_runtime_families(out, jvm, identity_, names_);
    ProcessStats stats = read_process_stats(false);
    stats.cpu_seconds = cpu_seconds_;
    add_process_families(out, stats);
    cpu_refresh_.add_families(out, "jvmsight_process_cpu", BackgroundRefresh::Clock::now());
  }
  // Periodic, on the agent thread: reads the process CPU time, and the
  // loads, again when each is due.
  void refresh() {
    if (cpu_refresh_.due(BackgroundRefresh::Clock::now())) read_cpu();
    if (os_refresh_.due(BackgroundRefresh::Clock::now())) read_os();
  }

  // System.getProperty, as client_java reads them: java.runtime.* are set
  // by the class library, so JVM TI's GetSystemProperty does not have them.
  static JvmIdentity read_identity(JNIEnv* jni);

 private:
  JNIEnv* jni_;
  const JvmIdentity identity_;
  const NameGenerations names_;
  RuntimeMxBeans beans_;
  BackgroundRefresh cpu_refresh_;
  std::optional<double> cpu_seconds_;
  // Apart from the CPU time: at 10,000 threads a read of the loads costs
  // milliseconds (more on newer JDKs), and would space out the CPU time's.
  // Paced to 0.1% of a core, at most every 5 s, so that it stays a small
  // part of what the agent thread does while scraped (BENCHMARKS.md).
  // getProcessCpuLoad is the load since the previous read, so the interval
  // is also the window it averages over.
  BackgroundRefresh os_refresh_{std::chrono::seconds(5), 1000};
  OsMxBean os_;
  OsReading os_reading_;

  void read_cpu() {
    const auto cpu_start = BackgroundRefresh::thread_cpu();
    cpu_seconds_ = read_process_cpu_seconds();
    cpu_refresh_.done(BackgroundRefresh::Clock::now(), BackgroundRefresh::thread_cpu() - cpu_start);
  }
  void read_os() {
    const auto cpu_start = BackgroundRefresh::thread_cpu();
    os_reading_ = os_.read(jni_);
    os_refresh_.done(BackgroundRefresh::Clock::now(), BackgroundRefresh::thread_cpu() - cpu_start);
  }
};

}  // namespace jvmsight
