// The ways users load an agent (-agentpath, JAVA_TOOL_OPTIONS, jcmd, jattach), each checked against the JVM's own
// thread counts, plus a second load that must change nothing.
#include <gtest/gtest.h>

#include <thread>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/thread_truth.h"

namespace jvmsight::test {
namespace {

class Loading : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(Loading, all_jdks());

// The stable counts a load must get right.
const std::vector<std::string> stable = {"RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "current"};

TEST_P(Loading, ByAgentpath) {
  AgentJvm jvm(GetParam(), "ThreadStates");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(threads_agree(*jvm.process, jvm.port, stable), "");
  // A healthy JVM of any version gets no warning, and every JDK from 8 on
  // defines and runs the helper class (its fallback to per-thread JNI says
  // so in an info line; a class that fails when run, in a warning).
  std::this_thread::sleep_for(700ms);  // past the first background deadlock check
  EXPECT_EQ(jvm.process->err().find("jvmsight: warning"), std::string::npos) << jvm.process->err();
  EXPECT_EQ(jvm.process->err().find("JvmsightLockScan"), std::string::npos) << jvm.process->err();
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

// Attached by jcmd JVMTI.agent_load (JDK 9+; JDK 8's jcmd lacks it) or by
// jattach (every JDK), then attached a second time.
void attach_twice(const Jdk& jdk, bool use_jattach) {
  TempDir dir;
  Process jvm(java_command(jdk, {}, "ThreadStates"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  auto first =
      attach_agent(jdk, jvm.pid(), agent_path(), "port=0,host=127.0.0.1,portfile=" + dir.path("port"), use_jattach);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << jvm.err();
  EXPECT_EQ(threads_agree(jvm, *port, stable), "");

  auto second =
      attach_agent(jdk, jvm.pid(), agent_path(), "port=0,host=127.0.0.1,portfile=" + dir.path("port2"), use_jattach);
  EXPECT_EQ(second.exit_code, 0) << second.out << second.err;
  EXPECT_NE(jvm.err().find("already running in this JVM (port " + std::to_string(*port) + ")"), std::string::npos)
      << jvm.err();
  EXPECT_FALSE(read_portfile(dir.path("port2"), 1s)) << "a second agent started a second server";
  EXPECT_EQ(threads_agree(jvm, *port, stable), "") << "counts changed after the second load";
}

// JDK 8's jcmd has no JVMTI.agent_load: there, jattach (ByJattach...) only.
class LoadingByJcmd : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(LoadingByJcmd, all_jdks().from(9));

TEST_P(LoadingByJcmd, AttachAndSecondAttachChangesNothing) { attach_twice(GetParam(), false); }

TEST_P(Loading, ByJattachAndSecondAttachChangesNothing) { attach_twice(GetParam(), true); }

TEST_P(Loading, AttachWithBadOptionsFailsTheCommandNotTheJvm) {
  const Jdk& jdk = GetParam();
  Process jvm(java_command(jdk, {}, "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s));
  auto r = attach_agent(jdk, jvm.pid(), agent_path(), "prot=1");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE(jvm.err().find("jvmsight: error: unknown option 'prot'"), std::string::npos) << jvm.err();
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s), 0);
}

}  // namespace
}  // namespace jvmsight::test
