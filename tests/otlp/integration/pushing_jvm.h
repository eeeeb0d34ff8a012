#pragma once
// What the OTLP integration tests share: a real JVM with the agent pushing
// to a receiver on loopback, and lookups in what arrived.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "tests/harness/jvm_process.h"
#include "tests/otlp/receiver/otlp_receiver.h"

namespace jvmsight::test {

// JDK 17 (the machine's own), else the first JDK found: for suites whose
// subject is the agent's own arithmetic or configuration, not the JDK's
// behaviour (docs/TESTING.md).
const Jdk& jdk17();

// protocol: "grpc" or "http/protobuf".
std::unique_ptr<OtlpReceiver> start_receiver(const std::string& protocol, const TlsFiles* tls = nullptr);

// A JVM running `main_class` with the agent (and `agent_options`), until it
// prints READY and the agent listens. OTEL_* variables of the test's own
// environment are cleared, so only `env` counts.
struct PushingJvm {
  TempDir dir;
  std::unique_ptr<Process> process;
  int port = 0;

  PushingJvm(const Jdk& jdk, const std::string& main_class, std::map<std::string, std::string> env,
             const std::vector<std::string>& jvm_args = {}, const std::vector<std::string>& args = {},
             const std::string& agent_options = "");
};

// Push to `r` over `protocol`: metrics every 200 ms, spans every 200 ms.
std::map<std::string, std::string> push_env(const OtlpReceiver& r, const std::string& protocol);

const opentelemetry::proto::metrics::v1::Metric* find_metric(const MetricsRequest& r, const std::string& name);

// OTLP push end to end on every JDK and both protocols (its tests are in
// otlp_push_test.cpp and otlp_push_spans_logs_test.cpp, instantiated in
// the former).
using JdkAndProtocol = std::tuple<Jdk, std::string>;  // JDK, "grpc" or "http/protobuf"
// "jdk17_grpc", "jdk25_http": the test instance's name.
std::string jdk_and_protocol_name(const ::testing::TestParamInfo<JdkAndProtocol>& i);
class OtlpPush : public ::testing::TestWithParam<JdkAndProtocol> {
 protected:
  const Jdk& jdk() const { return std::get<0>(GetParam()); }
  const std::string& protocol() const { return std::get<1>(GetParam()); }
};

}  // namespace jvmsight::test
