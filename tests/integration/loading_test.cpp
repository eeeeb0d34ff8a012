// The three ways users load an agent, each checked against the JVM's own
// thread counts, plus a second load that must change nothing.
#include <gtest/gtest.h>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/thread_truth.h"

namespace jvmsight::test {
namespace {

class Loading : public ::testing::TestWithParam<Jdk> {};

// The stable counts a load must get right.
const std::vector<std::string> stable = {"RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "current"};

TEST_P(Loading, ByAgentpath) {
  AgentJvm jvm(GetParam(), "ThreadStates");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(threads_agree(*jvm.process, jvm.port, stable), "");
  EXPECT_NE(jvm.process->err().find("jvmsight: serving http://127.0.0.1:" + std::to_string(jvm.port) + "/metrics"),
            std::string::npos)
      << jvm.process->err();
}

TEST_P(Loading, ByJavaToolOptions) {
  TempDir dir;
  Process jvm(java_command(GetParam(), {}, "ThreadStates"),
              {{"JAVA_TOOL_OPTIONS", agentpath_arg("port=0,host=127.0.0.1,portfile=" + dir.path("port"))}});
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << jvm.err();
  EXPECT_EQ(threads_agree(jvm, *port, stable), "");
}

TEST_P(Loading, ByJcmdAttachAndSecondAttachChangesNothing) {
  const Jdk& jdk = GetParam();
  TempDir dir;
  Process jvm(java_command(jdk, {}, "ThreadStates"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  std::string pid = std::to_string(jvm.pid());
  // jcmd's own quoting: the option string travels inside literal double quotes.
  auto first = run({jdk.tool("jcmd"), pid, "JVMTI.agent_load", agent_path(),
                    "\"port=0,host=127.0.0.1,portfile=" + dir.path("port") + "\""});
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("return code: 0"), std::string::npos) << first.out;
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << jvm.err();
  EXPECT_EQ(threads_agree(jvm, *port, stable), "");

  auto second = run({jdk.tool("jcmd"), pid, "JVMTI.agent_load", agent_path(),
                     "\"port=0,host=127.0.0.1,portfile=" + dir.path("port2") + "\""});
  EXPECT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_NE(jvm.err().find("already running in this JVM (port " + std::to_string(*port) + ")"), std::string::npos)
      << jvm.err();
  EXPECT_FALSE(read_portfile(dir.path("port2"), 1s)) << "a second agent started a second server";
  EXPECT_EQ(threads_agree(jvm, *port, stable), "") << "counts changed after the second load";
}

TEST_P(Loading, AttachWithBadOptionsFailsTheCommandNotTheJvm) {
  const Jdk& jdk = GetParam();
  Process jvm(java_command(jdk, {}, "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s));
  auto r = run({jdk.tool("jcmd"), std::to_string(jvm.pid()), "JVMTI.agent_load", agent_path(), "\"prot=1\""});
  EXPECT_EQ(r.out.find("return code: 0"), std::string::npos) << r.out;
  EXPECT_NE(jvm.err().find("jvmsight: error: unknown option 'prot'"), std::string::npos) << jvm.err();
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s), 0);
}

JVMSIGHT_ALL_JDKS(Loading);

}  // namespace
}  // namespace jvmsight::test
