#pragma once
// Names the frames of the stack table, on the agent thread: a method's
// "package.Class.method", source file and line table asked of JVM TI once
// and cached by jmethodID. The agent thread names every new stack within a
// slice of its first wait (MonitorProfile::name_new), so a class that
// unloads later keeps its names; a method whose class unloaded before that
// is named "[unloaded]", as JVM TI answers INVALID_METHODID for it, never
// read through a stale pointer.
#include <jni.h>
#include <jvmti.h>

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/contention_profile.h"

namespace jvmsight {

class FrameNames {
 public:
  FrameNames(jvmtiEnv* jvmti, JNIEnv* jni) : jvmti_(jvmti), jni_(jni) {}

  ProfileFrame frame(const jvmtiFrameInfo& f);
  // A function that is no method ("[other]"), by name.
  uint32_t function(const std::string& name, const std::string& file = "");
  const std::vector<ProfileFunction>& functions() const { return functions_; }
  size_t methods() const { return methods_.size(); }

 private:
  struct Method {
    uint32_t function = 0;
    std::vector<jvmtiLineNumberEntry> lines;  // by start location
  };
  const Method& method(jmethodID id);
  Method resolve(jmethodID id);

  jvmtiEnv* jvmti_;
  JNIEnv* jni_;
  std::unordered_map<jmethodID, Method> methods_;
  std::unordered_map<std::string, uint32_t> function_index_;  // name '\0' file
  std::vector<ProfileFunction> functions_;
};

// "Ljava/util/HashMap$Node;" -> "java.util.HashMap$Node"; garbage in, "" out.
std::string class_name_of_signature(const char* signature);

// A stack Java formatted (ParkedThreadScan::virtual_stacks: a line per frame,
// "Class.method\tFile.java\tline"), its functions named in `names`; a line
// without its three fields is left out.
std::vector<ProfileFrame> java_stack_frames(std::string_view lines, FrameNames& names);

}  // namespace jvmsight
