#pragma once
// JVM TI gives can_generate_breakpoint_events to one agent at a time, and
// only while agents load at startup. A debugger (JDWP) or another native
// agent that loads after jvmsight and needs breakpoints would not get them:
// JDWP then stops the JVM ("JDWP unable to get necessary JVMTI
// capabilities"). So pinning=auto takes them only when no other native
// agent is named in the JVM's options.
#include <string>
#include <string_view>

namespace jvmsight {

// The first -agentlib:, -agentpath: or -Xrun option in `options` (separated
// by NULs or whitespace) that is not jvmsight's own; empty if none.
std::string other_native_agent(std::string_view options);

// The JVM's options as far as the agent can see them at startup: the
// command line (/proc/self/cmdline), JAVA_TOOL_OPTIONS, JDK_JAVA_OPTIONS and
// _JAVA_OPTIONS. Not what @argfiles or -XX:VMOptionsFile hold.
std::string jvm_options_text();

}  // namespace jvmsight
