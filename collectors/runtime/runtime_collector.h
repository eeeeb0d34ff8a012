#pragma once
// The JVM runtime and process families of client_java (memory, buffer
// pools, classes, compilation, runtime info, process_*), at scrape time on
// the agent thread.
#include <jni.h>

#include "collectors/collector.h"
#include "collectors/runtime/runtime_families.h"
#include "collectors/runtime/runtime_mx_beans.h"

namespace jvmsight {

class RuntimeCollector : public Collector {
 public:
  RuntimeCollector(JNIEnv* jni, NameGenerations names) : jni_(jni), identity_(read_identity(jni)), names_(names) {}
  void collect(MetricFamilies& out) override {
    add_runtime_families(out, beans_.read(jni_), identity_, names_);
    add_process_families(out, read_process_stats());
  }

  // System.getProperty, as client_java reads them: java.runtime.* are set
  // by the class library, so JVM TI's GetSystemProperty does not have them.
  static JvmIdentity read_identity(JNIEnv* jni);

 private:
  JNIEnv* jni_;
  const JvmIdentity identity_;
  const NameGenerations names_;
  RuntimeMxBeans beans_;
};

}  // namespace jvmsight
