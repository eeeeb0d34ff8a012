#include "agent/jdk_tool.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(JdkTool, RecognisesJdkLaunchers) {
  EXPECT_TRUE(is_jdk_tool("jdk.jcmd/sun.tools.jcmd.JCmd 1234 Thread.print"));
  EXPECT_TRUE(is_jdk_tool("jdk.jcmd/sun.tools.jps.Jps -l"));
  EXPECT_TRUE(is_jdk_tool("jdk.jcmd/sun.tools.jstack.JStack 42"));
  EXPECT_TRUE(is_jdk_tool("jdk.compiler/com.sun.tools.javac.Main -version"));
  EXPECT_TRUE(is_jdk_tool("java.base/sun.security.tools.keytool.Main -list"));
  EXPECT_TRUE(is_jdk_tool("jdk.jshell/jdk.internal.jshell.tool.JShellToolProvider"));
  EXPECT_TRUE(is_jdk_tool("com.sun.tools.javac.Main"));
  EXPECT_TRUE(is_jdk_tool("sun.tools.jar.Main"));
  EXPECT_TRUE(is_jdk_tool(""));  // java -version and friends: no application
}

TEST(JdkTool, ApplicationsAreNotTools) {
  EXPECT_FALSE(is_jdk_tool("com.example.Main --port 8080"));
  EXPECT_FALSE(is_jdk_tool("/app/service.jar"));
  EXPECT_FALSE(is_jdk_tool("org.springframework.boot.loader.JarLauncher"));
  EXPECT_FALSE(is_jdk_tool("my.module/com.example.Main"));
  EXPECT_FALSE(is_jdk_tool("jdkish.Main"));
  // Source-file mode, as JDK 17 and JDK 22+ name its launcher.
  EXPECT_FALSE(is_jdk_tool("jdk.compiler/com.sun.tools.javac.launcher.Main App.java"));
  EXPECT_FALSE(is_jdk_tool("jdk.compiler/com.sun.tools.javac.launcher.SourceLauncher App.java"));
}

}  // namespace
}  // namespace jvmsight
