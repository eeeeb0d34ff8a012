// Secure endpoints in a real JVM: credentials from a file guard every
// endpoint, a bad credentials file fails closed (no server) and the JVM
// still runs its program; the detail endpoints answer loopback clients.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

class SecureEndpoints : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(SecureEndpoints, system_jdks());

TEST_P(SecureEndpoints, BearerTokenFileGuardsEveryEndpoint) {
  TempDir secrets;
  std::string token_file = secrets.path("token");
  std::ofstream(token_file) << "t0ken-from-a-file\n";
  chmod(token_file.c_str(), 0600);
  AgentJvm jvm(GetParam(), "Idle", {}, "bearer_token_file=" + token_file);
  ASSERT_GT(jvm.port, 0);
  for (const char* path : {"/metrics", "/threads", "/gc", "/"}) {
    EXPECT_EQ(jvm.get(path).status, 401) << path;
    auto ok =
        http_raw(jvm.port, std::string("GET ") + path + " HTTP/1.0\r\nAuthorization: Bearer t0ken-from-a-file\r\n\r\n");
    EXPECT_EQ(ok.status, 200) << path << "\n" << ok.body.substr(0, 200);
  }
  EXPECT_EQ(http_raw(jvm.port, "GET /metrics HTTP/1.0\r\nAuthorization: Bearer t0ken\r\n\r\n").status, 401);
  EXPECT_EQ(jvm.process->err().find("t0ken-from-a-file"), std::string::npos) << "the token was logged";
}

TEST_P(SecureEndpoints, MissingCredentialsFileFailsClosedAndTheJvmRuns) {
  TempDir dir;
  std::string portfile = dir.path("port");
  Process jvm(java_command(
      GetParam(),
      {agentpath_arg("host=127.0.0.1,port=0,portfile=" + portfile + ",basic_auth_file=" + dir.path("missing"))},
      "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s).value_or(-1), 0) << jvm.err();
  EXPECT_NE(jvm.err().find("jvmsight: error: cannot read basic_auth_file '" + dir.path("missing") +
                           "': No such file or directory; metrics are not served, the JVM continues"),
            std::string::npos)
      << jvm.err();
  EXPECT_FALSE(read_portfile(portfile, 0ms)) << "a server started without its credentials";
}

TEST_P(SecureEndpoints, DetailEndpointsAnswerLoopbackByDefault) {
  AgentJvm jvm(GetParam(), "Idle");
  ASSERT_GT(jvm.port, 0);
  EXPECT_EQ(jvm.get("/threads").status, 200);
  EXPECT_EQ(jvm.get("/threads").status, 200);  // loopback clients are not rate-limited
  EXPECT_EQ(jvm.get("/deadlocks").status, 200);
}

}  // namespace
}  // namespace jvmsight::test
