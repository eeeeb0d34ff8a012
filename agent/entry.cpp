// The JVM's entry points, and nothing else.
#include <jni.h>

#include "agent/agent.h"

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
  return jvmsight::Agent::load(vm, options, /*live=*/false);
}

extern "C" JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char* options, void*) {
  return jvmsight::Agent::load(vm, options, /*live=*/true);
}

extern "C" JNIEXPORT void JNICALL Agent_OnUnload(JavaVM*) {}
