// Bad input never stops the JVM: bad options and a busy port give one clear
// line and the program runs to completion; JDK tools stay silent.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

class FailOpen : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(FailOpen, system_jdks());

size_t count_agent_lines(const std::string& err) {
  std::stringstream ss(err);
  size_t n = 0;
  // The agent's lines start with "jvmsight:"; the JVM's own "Picked up
  // JAVA_TOOL_OPTIONS: ...libjvmsight.so" line is not the agent speaking.
  for (std::string line; std::getline(ss, line);) n += line.rfind("jvmsight:", 0) == 0;
  return n;
}

// Runs the Idle fixture with these agent options to completion.
Completed run_idle(const Jdk& jdk, const std::string& options) { return run_idle_with(jdk, agentpath_arg(options)); }

TEST_P(FailOpen, BadOptionsOneClearLineAndTheProgramCompletes) {
  struct Case {
    const char* options;
    const char* line;
  } cases[] = {
      {"bogus=1", "jvmsight: error: unknown option 'bogus' (accepted: host, port, portfile, log, "},
      {"port=99999", "jvmsight: error: bad port '99999' (expected a number from 0 to 65535"},
      {"host=example.com", "jvmsight: error: bad host 'example.com'"},
      {"log=chatty", "jvmsight: error: bad log level 'chatty'"},
  };
  for (const auto& c : cases) {
    auto r = run_idle(GetParam(), c.options);
    EXPECT_EQ(r.exit_code, 0) << c.options << "\n" << r.err;
    EXPECT_NE(r.out.find("READY"), std::string::npos) << c.options;
    EXPECT_NE(r.err.find(c.line), std::string::npos) << c.options << "\n" << r.err;
    EXPECT_NE(r.err.find("; the JVM continues without jvmsight"), std::string::npos) << r.err;
    EXPECT_EQ(count_agent_lines(r.err), 1u) << r.err;
  }
}

// A loopback port some other socket listens on, until release().
struct BusyPort {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int port = 0;
  BusyPort() {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 && listen(fd, 1) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
      port = ntohs(addr.sin_port);
  }
  ~BusyPort() { release(); }
  void release() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

TEST_P(FailOpen, BusyPortOneClearLineAndTheProgramCompletes) {
  BusyPort busy;
  ASSERT_GT(busy.port, 0);
  int port = busy.port;
  auto r = run_idle(GetParam(), "host=127.0.0.1,port=" + std::to_string(port));
  busy.release();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("jvmsight: error: cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("metrics are not served, the JVM continues"), std::string::npos) << r.err;
  EXPECT_EQ(count_agent_lines(r.err), 1u) << r.err;
}

// The server cannot bind: a portfile from an earlier run must not send
// scripts to a port nobody (or somebody else) listens on.
TEST_P(FailOpen, NoPortfileIsLeftWhenTheServerDoesNotStart) {
  BusyPort busy;
  ASSERT_GT(busy.port, 0);
  int port = busy.port;
  TempDir dir;
  std::string portfile = dir.path("port");
  { std::ofstream(portfile) << "12345\n"; }  // an earlier run's
  auto r = run_idle(GetParam(), "host=127.0.0.1, port = " + std::to_string(port) + ", portfile=" + portfile);
  busy.release();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("jvmsight: error: cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << r.err;
  EXPECT_EQ(count_agent_lines(r.err), 1u) << r.err;
  EXPECT_FALSE(read_portfile(portfile, 0ms)) << "a stale portfile was left behind";
  std::ifstream in(portfile);
  EXPECT_FALSE(in.good()) << "the portfile still exists";
}

TEST_P(FailOpen, UnwritablePortfileGivesTheReasonAndTheServerStillServes) {
  TempDir dir;
  std::string portfile = dir.path("missing-dir/port");
  auto r = run_idle(GetParam(), "host=127.0.0.1,port=0,portfile=" + portfile);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("jvmsight: warning: cannot write portfile '" + portfile + "': No such file or directory"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; the server listens on port "), std::string::npos) << r.err;
}

TEST_P(FailOpen, NearMissKeyGetsAHintInTheJvmsLine) {
  auto r = run_idle(GetParam(), "prot=9404, log=warn");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("jvmsight: error: unknown option 'prot' (did you mean 'port'?"), std::string::npos) << r.err;
  EXPECT_EQ(count_agent_lines(r.err), 1u) << r.err;
}

TEST_P(FailOpen, JdkToolsWithInheritedOptionsStayQuietAndTakeNoPort) {
  const Jdk& jdk = GetParam();
  AgentJvm app(jdk, "Idle");
  ASSERT_GT(app.port, 0);
  std::string pid = std::to_string(app.process->pid());
  TempDir dir;
  // Same port as the app (as in a container where every JVM inherits it) and
  // a portfile that only a listening agent would write.
  std::map<std::string, std::string> env{
      {"JAVA_TOOL_OPTIONS",
       agentpath_arg("host=127.0.0.1,port=" + std::to_string(app.port) + ",portfile=" + dir.path("tool-port"))}};
  std::vector<std::vector<std::string>> tools{{jdk.tool("jcmd"), "-l"},        {jdk.tool("jcmd"), pid, "VM.version"},
                                              {jdk.tool("jps"), "-l"},         {jdk.tool("jstack"), pid},
                                              {jdk.tool("javac"), "-version"}, {jdk.tool("jar"), "--version"}};
  for (const auto& argv : tools) {
    auto r = run(argv, env);
    EXPECT_EQ(r.exit_code, 0) << argv[0] << "\n" << r.err;
    EXPECT_EQ(count_agent_lines(r.err + r.out), 0u) << argv[0] << " printed agent noise:\n" << r.err << r.out;
  }
  EXPECT_FALSE(read_portfile(dir.path("tool-port"), 0ms)) << "a JDK tool started the agent's server";
  EXPECT_EQ(app.get("/metrics").status, 200);
}

}  // namespace
}  // namespace jvmsight::test
