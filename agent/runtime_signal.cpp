#include "agent/runtime_signal.h"

#include "collectors/background_refresh.h"
#include "common/jvm_calls.h"

namespace jvmsight {

void RuntimeSignal::schedule(AgentThread& thread) {
  thread.every(BackgroundRefresh::tick, [this] {
    if (collector_) collector_->refresh();
  });
}

void RuntimeSignal::build(JNIEnv* jni, CollectorSet& collectors) {
  safepoints_ = SafepointCollector::create(jni, jvmti_major(jvmti_));
  if (safepoints_) collectors.add("safepoints", *safepoints_);
  if (options_.client_java_names == ClientJavaNames::off) return;
  NameGenerations names{options_.client_java_names != ClientJavaNames::v1,
                        options_.client_java_names != ClientJavaNames::v0};
  collector_ = std::make_unique<RuntimeCollector>(jni, names);
  collectors.add("runtime", *collector_);
}

}  // namespace jvmsight
