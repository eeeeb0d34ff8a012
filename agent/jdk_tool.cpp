#include "agent/jdk_tool.h"

namespace jvmsight {

bool is_jdk_tool(std::string_view command) {
  std::string_view main = command.substr(0, command.find(' '));
  if (main.empty()) return true;
  // `java App.java` (source-file mode) runs the user's program through
  // javac's launcher: an application, not a tool.
  static constexpr std::string_view source_launchers[] = {"jdk.compiler/com.sun.tools.javac.launcher.Main",
                                                          "jdk.compiler/com.sun.tools.javac.launcher.SourceLauncher"};
  for (auto launcher : source_launchers)
    if (main == launcher) return false;
  // Launchers of JDK 9+ tools run a main class in a JDK module: "jdk.jcmd/sun.tools.jcmd.JCmd".
  size_t slash = main.find('/');
  if (slash != std::string_view::npos) {
    std::string_view module = main.substr(0, slash);
    return module.rfind("jdk.", 0) == 0 || module.rfind("java.", 0) == 0;
  }
  static constexpr std::string_view tool_packages[] = {"sun.tools.",    "com.sun.tools.",    "sun.security.tools.",
                                                       "jdk.internal.", "jdk.jfr.internal.", "sun.launcher."};
  for (auto prefix : tool_packages)
    if (main.rfind(prefix, 0) == 0) return true;
  return false;
}

}  // namespace jvmsight
