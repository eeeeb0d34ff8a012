#pragma once
// java.lang.management.ThreadMXBean reached through JNI on the agent thread.
// Resolved lazily on first use, so a JVM that is never scraped never loads
// the management classes.
#include <jni.h>

#include <optional>

#include "collectors/threads/thread_source.h"

namespace jvmsight {

class ThreadMxBean {
 public:
  std::optional<ThreadCounts> counts(JNIEnv* jni);
  // The bean itself (a global reference), for collectors that need more of it.
  jobject bean(JNIEnv* jni);

 private:
  bool resolve(JNIEnv* jni);

  bool tried_ = false;
  jobject bean_ = nullptr;
  jmethodID thread_count_ = nullptr;
  jmethodID daemon_count_ = nullptr;
  jmethodID peak_count_ = nullptr;
  jmethodID started_count_ = nullptr;
};

}  // namespace jvmsight
