// pinning=auto steps aside for another native agent (JVM TI gives
// breakpoints to one agent only, and JDWP stops the JVM without them).
#include "agent/other_agents.h"

#include <gtest/gtest.h>

#include <string>

namespace jvmsight {
namespace {

std::string cmdline(std::initializer_list<const char*> args) {
  std::string out;
  for (const char* a : args) out.append(a).append(1, '\0');
  return out;
}

TEST(OtherAgents, FindsADebuggerOrAnotherNativeAgent) {
  EXPECT_EQ(other_native_agent(cmdline({"java", "-agentpath:/opt/jvmsight/libjvmsight-loader.so=port=9404",
                                        "-agentlib:jdwp=transport=dt_socket,server=y", "-jar", "app.jar"})),
            "-agentlib:jdwp=transport=dt_socket,server=y");
  EXPECT_EQ(other_native_agent(cmdline({"java", "-Xrunjdwp:transport=dt_socket", "Main"})),
            "-Xrunjdwp:transport=dt_socket");
  // JAVA_TOOL_OPTIONS-style text, spaces between options.
  EXPECT_EQ(other_native_agent("-agentpath:/a/libjvmsight.so  -agentpath:/opt/lightrun/agent.so=x"),
            "-agentpath:/opt/lightrun/agent.so=x");
}

TEST(OtherAgents, IgnoresItselfJavaAgentsAndEverythingElse) {
  EXPECT_EQ(other_native_agent(cmdline({"java", "-agentpath:/opt/jvmsight/libjvmsight-loader.so=port=0",
                                        "-javaagent:/opt/otel/opentelemetry-javaagent.jar", "-Xmx1g",
                                        "-Dx=-agentlib:jdwp", "Main", "-agentlibx"})),
            "");
  EXPECT_EQ(other_native_agent(""), "");
}

}  // namespace
}  // namespace jvmsight
