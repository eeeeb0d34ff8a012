#include "tests/harness/agent_jvm.h"

#include <cstdlib>

#include "tests/harness/thread_truth.h"

namespace jvmsight::test {

AgentJvm::AgentJvm(const Jdk& jdk, const std::string& main_class, const std::vector<std::string>& args,
                   const std::string& extra_options, const std::vector<std::string>& jvm_args) {
  std::string options = "port=0,host=127.0.0.1,portfile=" + dir.path("port");
  if (!extra_options.empty()) options += "," + extra_options;
  std::vector<std::string> all_jvm_args{agentpath_arg(options)};
  all_jvm_args.insert(all_jvm_args.end(), jvm_args.begin(), jvm_args.end());
  process = std::make_unique<Process>(java_command(jdk, all_jvm_args, main_class, args));
  if (!process->wait_for_line("READY", 60s)) {
    ADD_FAILURE() << main_class << " never became READY; stderr:\n" << process->err();
    return;
  }
  auto p = read_portfile(dir.path("port"), 30s);
  if (!p) {
    ADD_FAILURE() << "agent wrote no portfile; stderr:\n" << process->err();
    return;
  }
  port = *p;
}

PromScrape AgentJvm::scrape() const {
  HttpResult r = get("/metrics");
  // Under qemu-user emulation (tests/arm64/run.sh sets JVMSIGHT_TEST_EMULATED)
  // a cold JVM's first collections can outlast the agent's 5 s deadline; its
  // 503 means "try again", which a scraper does at its next interval.
  static const bool emulated = getenv("JVMSIGHT_TEST_EMULATED") != nullptr;
  for (int retry = 0; emulated && r.status == 503 && retry < 5; ++retry) r = get("/metrics");
  EXPECT_EQ(r.status, 200) << r.body;
  return PromScrape(r.body);
}

std::string AgentJvm::report(const std::string& prefix) {
  std::string line = request_report(*process, prefix);
  EXPECT_FALSE(line.empty()) << "fixture gave no " << prefix << " report";
  return line;
}

}  // namespace jvmsight::test
