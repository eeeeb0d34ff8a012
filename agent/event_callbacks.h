#pragma once
// The one JVM TI callback table. Every event the agent handles is routed
// from here; event callbacks are hot paths (no malloc, mutex, JNI or logging).
#include <jvmti.h>

#include "agent/capabilities.h"

namespace jvmsight {

class Agent;

// Installs the table and enables the lifecycle events (VMInit only when
// loading at startup) plus what the granted capabilities allow.
bool install_event_callbacks(jvmtiEnv* jvmti, Agent* agent, const Capabilities& caps, bool live);

}  // namespace jvmsight
