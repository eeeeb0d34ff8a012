#pragma once
#include <jni.h>
#include <jvmti.h>

#include <map>
#include <string>
#include <vector>

namespace jvmsight {

// Classes of lock objects the contention callbacks tagged (lock_tag), by
// identity hash: JVM TI GetObjectsWithTags walks the tag map, not the heap.
// Objects that died since are simply not found. Agent thread only.
std::map<int32_t, std::string> tagged_lock_classes(jvmtiEnv* jvmti, JNIEnv* jni, const std::vector<int32_t>& hashes);

}  // namespace jvmsight
