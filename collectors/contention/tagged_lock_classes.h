#pragma once
#include <jni.h>
#include <jvmti.h>

#include <map>
#include <string>
#include <vector>

#include "collectors/contention/monitor_contention_collector.h"

namespace jvmsight {

// The contention collector's resolver: classes of lock objects the
// contention callbacks tagged (lock_tag), by identity hash. JVM TI
// GetObjectsWithTags walks the tag map, not the heap. Objects that died
// since are simply not found. Agent thread only (jni is its JNIEnv).
class TaggedLockClasses : public TaggedClassResolver {
 public:
  TaggedLockClasses(jvmtiEnv* jvmti, JNIEnv* jni) : jvmti_(jvmti), jni_(jni) {}
  std::map<int32_t, std::string> classes_of(const std::vector<int32_t>& hashes) override;

 private:
  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
};

}  // namespace jvmsight
