#pragma once
#include <string_view>

namespace jvmsight {

// True when sun.java.command names a JDK tool (jcmd, jps, jstack, javac,
// keytool, jshell...) rather than an application. Such JVMs inherit
// JAVA_TOOL_OPTIONS in containers; the agent stays silent and inert there.
// An empty command (no main class, e.g. `java -version`) counts as a tool too.
bool is_jdk_tool(std::string_view java_command);

}  // namespace jvmsight
