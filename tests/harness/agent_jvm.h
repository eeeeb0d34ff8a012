#pragma once
// A fixture JVM with the agent loaded by -agentpath on port 0, its port
// learned from the portfile: the starting point of most integration tests.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"
#include "tests/harness/prometheus_text.h"

namespace jvmsight::test {

struct AgentJvm {
  TempDir dir;
  std::unique_ptr<Process> process;
  int port = 0;

  // Starts main_class with the agent (plus extra_options) and waits for READY
  // and the port. Fails the test (ADD_FAILURE) and leaves port 0 on error.
  AgentJvm(const Jdk& jdk, const std::string& main_class, const std::vector<std::string>& args = {},
           const std::string& extra_options = "", const std::vector<std::string>& jvm_args = {});

  HttpResult get(const std::string& path) const { return http_get(port, path); }
  PromScrape scrape() const;
  // Asks the fixture for a fresh ground-truth line with this prefix ("THREADS").
  std::string report(const std::string& prefix = "THREADS");
};

}  // namespace jvmsight::test
