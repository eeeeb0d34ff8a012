// HTTPS in a real JVM: every endpoint over TLS to curl trusting a CA made
// for the test, with basic auth; a bad certificate setup leaves no listener
// and no portfile, says why in one line, and the JVM runs its program.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "tests/harness/agent_jvm.h"
#include "tests/harness/test_ca.h"

namespace jvmsight::test {
namespace {

class HttpsJvm : public ::testing::TestWithParam<Jdk> {
 protected:
  void SetUp() override {
    make_test_ca(ca_);
    ASSERT_EQ(ca_.error, "");
  }
  std::string tls_options(const std::string& key) const {
    return "tls_cert_file=" + ca_.server_cert + ",tls_key_file=" + key;
  }
  TestCa ca_;
};
JVMSIGHT_JDKS(HttpsJvm, system_jdks());

TEST_P(HttpsJvm, EveryEndpointOverTlsWithBasicAuth) {
  std::string users = ca_.dir.path("users");
  std::ofstream(users) << "ops:pa55\n";
  chmod(users.c_str(), 0600);
  AgentJvm jvm(GetParam(), "Idle", {}, tls_options(ca_.server_key) + ",basic_auth_file=" + users);
  ASSERT_GT(jvm.port, 0);
  const std::string base = "https://127.0.0.1:" + std::to_string(jvm.port);
  for (const char* path : {"/metrics", "/threads", "/deadlocks", "/gc", "/"}) {
    auto ok = curl({"--cacert", ca_.ca_cert, "-u", "ops:pa55", "-o", "/dev/null", "-w", "%{http_code}", base + path});
    EXPECT_EQ(ok.out, "200") << path << ": " << ok.err;
    auto anonymous = curl({"--cacert", ca_.ca_cert, "-o", "/dev/null", "-w", "%{http_code}", base + path});
    EXPECT_EQ(anonymous.out, "401") << path << ": " << anonymous.err;
  }
  auto metrics = curl({"--cacert", ca_.ca_cert, "-u", "ops:pa55", base + "/metrics"});
  EXPECT_NE(metrics.out.find("jvm_threads_current "), std::string::npos);
  EXPECT_NE(jvm.get("/metrics").status, 200) << "plain HTTP answered on the HTTPS port";
  EXPECT_NE(jvm.process->err().find("serving https://"), std::string::npos) << jvm.process->err();
}

TEST_P(HttpsJvm, WrongKeyLeavesNoListenerAndTheJvmRuns) {
  TempDir dir;
  std::string portfile = dir.path("port");
  Process jvm(java_command(
      GetParam(), {agentpath_arg("host=127.0.0.1,port=0,portfile=" + portfile + "," + tls_options(ca_.other_key))},
      "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s).value_or(-1), 0) << jvm.err();
  EXPECT_NE(jvm.err().find("jvmsight: error: HTTPS on 127.0.0.1:0: tls_key_file '" + ca_.other_key +
                           "' is not the key of the certificate in '" + ca_.server_cert +
                           "'; metrics are not served, the JVM continues"),
            std::string::npos)
      << jvm.err();
  EXPECT_FALSE(read_portfile(portfile, 0ms)) << "a server started with a wrong key";
}

}  // namespace
}  // namespace jvmsight::test
