// The loader (libjvmsight-loader.so) makes loading fail open: whatever is
// wrong with libjvmsight.so, the JVM runs its main and exits 0 with exactly
// one jvmsight line; with a good agent next to it, the agent runs as usual.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

namespace fs = std::filesystem;

class Loader : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(Loader, system_jdks());

// JVMSIGHT_TEST_LOADER: another build's loader (scripts/sanitize.sh jvm: the
// instrumented one, which loads the instrumented agent beside it).
std::string loader_under_test() {
  const char* other = getenv("JVMSIGHT_TEST_LOADER");
  return other && *other ? other : JVMSIGHT_LOADER_PATH;
}
const std::string loader_path = loader_under_test();

std::vector<std::string> agent_lines(const std::string& err) {
  std::stringstream ss(err);
  std::vector<std::string> lines;
  for (std::string line; std::getline(ss, line);)
    if (line.rfind("jvmsight:", 0) == 0) lines.push_back(line);
  return lines;
}

// Runs the Idle fixture with this -agentpath library to completion.
Completed run_idle(const Jdk& jdk, const std::string& library, const std::string& options = "host=127.0.0.1,port=0") {
  return run_idle_with(jdk, "-agentpath:" + library + "=" + options);
}

// The loader alone in a fresh directory, as an image would hold it.
std::string copy_loader(const TempDir& dir) {
  fs::copy_file(loader_path, dir.path("libjvmsight-loader.so"));
  return dir.path("libjvmsight-loader.so");
}

// One line naming the agent's path and the dynamic linker's reason, and the
// program ran to completion.
void expect_one_line_and_completion(const Completed& r, const std::string& agent, const std::string& reason) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("READY"), std::string::npos) << r.out << r.err;
  auto lines = agent_lines(r.err);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("jvmsight: error: cannot load " + agent + ": ", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find(reason), std::string::npos) << lines[0];
  const std::string tail = "; the JVM continues without jvmsight";
  EXPECT_EQ(lines[0].substr(lines[0].size() - std::min(lines[0].size(), tail.size())), tail) << lines[0];
}

TEST_P(Loader, LoadsTheAgentNextToItWhichServesMetrics) {
  TempDir dir;
  Process jvm(java_command(
      GetParam(), {"-agentpath:" + loader_path + "=host=127.0.0.1,port=0,portfile=" + dir.path("port")}, "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  auto port = read_portfile(dir.path("port"), 30s);
  ASSERT_TRUE(port) << jvm.err();
  auto r = http_get(*port, "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.body.find("jvm_threads_current "), std::string::npos) << r.body.substr(0, 300);
  // Both libraries are in the JVM: the agent came in through the loader.
  std::ifstream maps("/proc/" + std::to_string(jvm.pid()) + "/maps");
  std::stringstream ss;
  ss << maps.rdbuf();
  EXPECT_NE(ss.str().find("/libjvmsight-loader.so"), std::string::npos);
  EXPECT_NE(ss.str().find("/libjvmsight.so"), std::string::npos);
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s).value_or(-1), 0) << jvm.err();
  EXPECT_EQ(jvm.err().find("cannot load"), std::string::npos) << jvm.err();
}

TEST_P(Loader, MissingAgentOneLineAndTheProgramCompletes) {
  TempDir dir;
  auto r = run_idle(GetParam(), copy_loader(dir));
  expect_one_line_and_completion(r, dir.path("libjvmsight.so"), "No such file or directory");
}

TEST_P(Loader, UnresolvableDependencyOneLineAndTheProgramCompletes) {
  TempDir dir;
  std::string loader = copy_loader(dir);
  // The real agent, asking the dynamic linker for a library no system has.
  fs::copy_file(agent_path(), dir.path("libjvmsight.so"));
  auto patched = run({"/usr/bin/patchelf", "--add-needed", "libdoes-not-exist.so", dir.path("libjvmsight.so")});
  ASSERT_EQ(patched.exit_code, 0) << "patchelf: " << patched.err;
  // Without the loader, this library stops the JVM: what the loader is for.
  // Run to completion (no READY to wait for when the JVM refuses to start).
  auto direct = run(java_command(GetParam(), {"-agentpath:" + dir.path("libjvmsight.so")}, "Idle"), {}, 60s);
  EXPECT_NE(direct.exit_code, 0) << "the JVM started with a broken agent: the test proves nothing\n" << direct.err;
  EXPECT_EQ(direct.out.find("READY"), std::string::npos);

  auto r = run_idle(GetParam(), loader);
  expect_one_line_and_completion(r, dir.path("libjvmsight.so"), "libdoes-not-exist.so: cannot open shared object file");
}

TEST_P(Loader, LibraryWithoutEntryPointOneLineAndTheProgramCompletes) {
  TempDir dir;
  std::string loader = copy_loader(dir);
  // A loadable library that is not an agent (zlib is on every Debian system).
  fs::copy_file("/lib/x86_64-linux-gnu/libz.so.1", dir.path("libjvmsight.so"));
  auto r = run_idle(GetParam(), loader);
  expect_one_line_and_completion(r, dir.path("libjvmsight.so"), "undefined symbol: Agent_OnLoad");
}

TEST_P(Loader, AttachWithoutAgentFailsInJcmdAndTheJvmRunsOn) {
  const Jdk& jdk = GetParam();
  TempDir dir;
  std::string loader = copy_loader(dir);
  std::vector<std::string> jvm_args;
  if (jdk.feature >= 21) jvm_args.push_back("-XX:+EnableDynamicAgentLoading");  // no warning on stderr
  Process jvm(java_command(jdk, jvm_args, "Idle"));
  ASSERT_TRUE(jvm.wait_for_line("READY", 60s)) << jvm.err();
  auto r = run({jdk.tool("jcmd"), std::to_string(jvm.pid()), "JVMTI.agent_load", loader, "port=0"});
  // jcmd reports the agent's JNI_ERR; the JVM has its one line and runs on.
  EXPECT_NE(r.out.find("return code: -1"), std::string::npos) << r.out << r.err;
  jvm.send("report");
  EXPECT_TRUE(jvm.wait_for_line("THREADS", 30s)) << "the JVM stopped serving its commands\n" << jvm.err();
  jvm.send("exit");
  EXPECT_EQ(jvm.wait(30s).value_or(-1), 0) << jvm.err();
  auto lines = agent_lines(jvm.err());
  ASSERT_EQ(lines.size(), 1u) << jvm.err();
  EXPECT_EQ(lines[0].rfind("jvmsight: error: cannot load " + dir.path("libjvmsight.so") + ": ", 0), 0u) << lines[0];
}

}  // namespace
}  // namespace jvmsight::test
