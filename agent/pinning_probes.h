#pragma once
// Where virtual-thread pinnings are seen: JVM TI breakpoints in the JDK's
// own code (PinningRecorder says which and why). A breakpoint makes the
// method it is set in run interpreted; these run only while a virtual
// thread pins. (The capability has a cost of its own: docs/METRICS.md.)
#include <jni.h>
#include <jvmti.h>

#include "collectors/threads/pinning_recorder.h"

namespace jvmsight {

// Agent thread, once, with the Breakpoint callback installed and
// can_generate_breakpoint_events granted. Sets the probes and enables the
// event; false (with one info line) where the JDK has no parking method to
// probe, and then the family stays absent.
bool set_pinning_probes(jvmtiEnv* jvmti, JNIEnv* jni, PinningRecorder& recorder);

}  // namespace jvmsight
