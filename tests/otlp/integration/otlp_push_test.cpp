// OTLP push end to end: real JVMs (every JDK) with the agent and the plugin,
// pushing to real gRPC and HTTP receivers on loopback; what arrives is
// compared with what the JVM itself reports (ThreadMXBean/Thread.getState,
// GarbageCollectorMXBeans).
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"
#include "tests/harness/prometheus_text.h"
#include "tests/harness/thread_truth.h"
#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

namespace pb = opentelemetry::proto::metrics::v1;

template <class Point>
std::string attribute(const Point& p, const std::string& key) {
  for (const auto& kv : p.attributes())
    if (kv.key() == key) return kv.value().string_value();
  return "";
}

std::map<std::string, std::string> resource_of(const MetricsRequest& r) {
  std::map<std::string, std::string> out;
  for (const auto& kv : r.resource_metrics(0).resource().attributes())
    out[kv.key()] = kv.value().has_int_value() ? std::to_string(kv.value().int_value()) : kv.value().string_value();
  return out;
}

bool maps_library(pid_t pid, const std::string& name) {
  std::ifstream maps("/proc/" + std::to_string(pid) + "/maps");
  std::string line;
  while (std::getline(maps, line))
    if (line.find(name) != std::string::npos) return true;
  return false;
}

// The fixture's "DAEMONS NEW=.. RUNNABLE=.." line (GroundTruth.daemonStates), fresh.
std::string daemon_report(Process& fixture) {
  size_t before = 0;
  for (size_t n = 1; fixture.wait_for_line("DAEMONS ", 0ms, n); ++n) before = n;
  fixture.send("daemons");
  return fixture.wait_for_line("DAEMONS ", 30s, before + 1).value_or("");
}

// What arrives differs by JDK, how it travels does not: both transports on
// this machine's JDKs, gRPC alone on the extra ones.
INSTANTIATE_TEST_SUITE_P(Jdks, OtlpPush,
                         ::testing::Combine(::testing::ValuesIn(system_jdks().list()),
                                            ::testing::Values("grpc", "http/protobuf")),
                         jdk_and_protocol_name);
INSTANTIATE_TEST_SUITE_P(ExtraJdks, OtlpPush,
                         ::testing::Combine(::testing::ValuesIn(extra_jdks().list()), ::testing::Values("grpc")),
                         jdk_and_protocol_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OtlpPush);

// jvm.thread.count by jvm.thread.state equals Thread.getState() over all
// threads, as the fixture reports it; headers and resource attributes from
// the environment arrive with it.
TEST_P(OtlpPush, ThreadCountsHeadersAndResourceArrive) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  auto env = push_env(*receiver, protocol());
  env["OTEL_EXPORTER_OTLP_HEADERS"] = "X-Tenant=acme%20corp";
  env["OTEL_SERVICE_NAME"] = "otlp-it";
  env["OTEL_RESOURCE_ATTRIBUTES"] = "deployment.environment=ci,k8s.pod.name=pod%2D7";
  PushingJvm jvm(jdk(), "ThreadStates", env, {}, {"3", "2", "4", "2"});
  ASSERT_GT(jvm.port, 0);
  EXPECT_TRUE(maps_library(jvm.process->pid(), "libjvmsight-otlp.so"));
  // gRPC is spoken with nghttp2: grpc++ and its closure stay out of the JVM.
  EXPECT_FALSE(maps_library(jvm.process->pid(), "libgrpc"));

  // Bounded: the JVM's own service threads may wake between the views.
  // Both the state totals (summed over jvm.thread.daemon) and the daemon
  // threads per state must match what the fixture's ThreadMXBean says.
  std::string diff = "nothing received";
  for (int attempt = 0; attempt < 15 && !diff.empty(); ++attempt) {
    auto truth = parse_report(request_report(*jvm.process));
    auto daemons = parse_report(daemon_report(*jvm.process));
    size_t seen = receiver->received().size();
    ASSERT_TRUE(receiver->wait_for_more_than(seen, 10s)) << jvm.process->err();
    const MetricsRequest request = receiver->received().back().request;
    const pb::Metric* m = find_metric(request, "jvm.thread.count");
    ASSERT_NE(m, nullptr);
    std::map<std::string, long> pushed, pushed_daemon;
    bool daemon_attribute_everywhere = true;
    for (const auto& p : m->sum().data_points()) {
      const std::string state = attribute(p, "jvm.thread.state");
      pushed[state] += static_cast<long>(p.as_int());
      bool has_daemon = false;
      for (const auto& kv : p.attributes())
        if (kv.key() == "jvm.thread.daemon" && kv.value().has_bool_value()) {
          has_daemon = true;
          if (kv.value().bool_value()) pushed_daemon[state] += static_cast<long>(p.as_int());
        }
      daemon_attribute_everywhere = daemon_attribute_everywhere && has_daemon;
    }
    diff = daemon_attribute_everywhere ? "" : "a point without a boolean jvm.thread.daemon; ";
    for (const char* state : {"NEW", "RUNNABLE", "BLOCKED", "WAITING", "TIMED_WAITING", "TERMINATED"}) {
      std::string lower = state;
      for (auto& c : lower) c = static_cast<char>(std::tolower(c));
      if (pushed[lower] != truth[state])
        diff += lower + " pushed " + std::to_string(pushed[lower]) + " JVM " + std::to_string(truth[state]) + "; ";
      if (pushed_daemon[lower] != daemons[state])
        diff += "daemon " + lower + " pushed " + std::to_string(pushed_daemon[lower]) + " JVM " +
                std::to_string(daemons[state]) + "; ";
    }
  }
  EXPECT_EQ(diff, "");

  const Received last = receiver->received().back();
  EXPECT_EQ(last.headers.count("x-tenant") ? last.headers.at("x-tenant") : "", "acme corp");
  auto resource = resource_of(last.request);
  EXPECT_EQ(resource["service.name"], "otlp-it");
  EXPECT_EQ(resource["deployment.environment"], "ci");
  EXPECT_EQ(resource["k8s.pod.name"], "pod-7");
  EXPECT_EQ(resource["process.pid"], std::to_string(jvm.process->pid()));
  EXPECT_EQ(resource["telemetry.sdk.name"], "jvmsight");
  EXPECT_EQ(last.request.resource_metrics(0).scope_metrics(0).scope().name(), "jvmsight");
}

// With Serial GC every collection is one pause: the pushed jvm.gc.duration
// count (over all jvm.gc.name values) equals the GarbageCollectorMXBeans'
// total, and jvmsight.gc.collection equals each bean's count. Per-name pause
// counts are not compared: attribution by GC notification may leave a pause
// "unknown" on a loaded machine (docs/METRICS.md, Known limits).
TEST_P(OtlpPush, GcCountsMatchTheMxBeans) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "GcChurn", push_env(*receiver, protocol()), {"-XX:+UseSerialGC", "-Xmx256m"});
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("churn 3 200");
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));
  // Bounded by time: a pause no notification matched settles up to 10 s late
  // (docs/METRICS.md, Lag).
  std::string diff = "nothing compared";
  for (auto until = std::chrono::steady_clock::now() + 25s;
       !diff.empty() && std::chrono::steady_clock::now() < until;) {
    size_t lines = 0;
    while (jvm.process->wait_for_line("GC ", 0ms, lines + 1)) ++lines;
    jvm.process->send("gc");
    std::string line = jvm.process->wait_for_line("GC ", 30s, lines + 1).value_or("GC ");
    std::map<std::string, long> beans;  // "GC Copy=3/12;MarkSweepCompact=3/40"
    std::stringstream entries(line.substr(3));
    for (std::string e; std::getline(entries, e, ';');)
      beans[e.substr(0, e.find('='))] = std::stol(e.substr(e.find('=') + 1));
    size_t seen = receiver->received().size();
    ASSERT_TRUE(receiver->wait_for_more_than(seen, 10s));
    const MetricsRequest request = receiver->received().back().request;
    std::map<std::string, long> durations, collections;
    std::string actions_bad;
    if (const pb::Metric* m = find_metric(request, "jvm.gc.duration"))
      for (const auto& p : m->histogram().data_points()) {
        durations[attribute(p, "jvm.gc.name")] += p.count();
        // Serial GC's notifications say "end of minor GC" / "end of major GC".
        const std::string action = attribute(p, "jvm.gc.action");
        if (action != "end of minor GC" && action != "end of major GC" && action != "unknown")
          actions_bad += "jvm.gc.action '" + action + "'; ";
      }
    if (const pb::Metric* m = find_metric(request, "jvmsight.gc.collection"))
      for (const auto& p : m->histogram().data_points()) collections[attribute(p, "gc")] = p.count();
    diff = actions_bad;
    long pauses = 0, bean_total = 0;
    for (const auto& [name, count] : durations) {
      pauses += count;
      if (name != "unknown" && !beans.count(name)) diff += "jvm.gc.name " + name + " is no bean; ";
    }
    for (const auto& [name, count] : beans) {
      bean_total += count;
      if (collections[name] != count)
        diff += "jvmsight.gc.collection " + name + " " + std::to_string(collections[name]) + " vs " +
                std::to_string(count) + "; ";
    }
    if (pauses != bean_total)
      diff += "jvm.gc.duration count " + std::to_string(pauses) + " vs beans " + std::to_string(bean_total) + "; ";
    if (beans.empty() || beans["MarkSweepCompact"] < 3) diff += "fixture ran fewer collections than asked; ";
  }
  EXPECT_EQ(diff, "");
}

// UNAVAILABLE twice, then OK: the data arrives after retries, none is given up.
TEST_P(OtlpPush, RetriesWhenTheReceiverIsUnavailable) {
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  receiver->fail_next(2);
  PushingJvm jvm(jdk(), "ThreadStates", push_env(*receiver, protocol()));
  ASSERT_GT(jvm.port, 0);
  ASSERT_TRUE(receiver->wait_for_more_than(0, 20s)) << jvm.process->err();
  EXPECT_EQ(receiver->failures_answered(), 2u);
  // The receiver has the data a moment before the exporter has its answer.
  PromScrape s("");
  for (auto until = std::chrono::steady_clock::now() + 10s; std::chrono::steady_clock::now() < until;) {
    s = PromScrape(http_get(jvm.port, "/metrics").body);
    if (s.value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "sent"}}).value_or(0) >= 1) break;
  }
  EXPECT_EQ(s.value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "failed"}}).value_or(-1), 0);
  EXPECT_GE(s.value("jvmsight_otlp_retries_total", {{"signal", "metrics"}}).value_or(0), 2);
  EXPECT_GE(s.value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "sent"}}).value_or(0), 1);
  EXPECT_GT(s.value("jvmsight_otlp_last_success_timestamp_seconds", {{"signal", "metrics"}}).value_or(0), 1e9);
  // Each signal has its own counters; no span or deadlock failed meanwhile.
  EXPECT_EQ(s.value("jvmsight_otlp_exports_total", {{"signal", "traces"}, {"result", "failed"}}).value_or(-1), 0);
  EXPECT_EQ(s.value("jvmsight_otlp_dropped_total", {{"signal", "logs"}}).value_or(-1), 0);
}

// A collector that accepts TCP connections and never answers: the JVM still
// exits within the flush budget (~1 s) plus its own exit time.
TEST_P(OtlpPush, SilentEndpointDoesNotDelayExit) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(fd, 16), 0);  // never accepted: the kernel completes handshakes, nobody answers
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  std::map<std::string, std::string> env = {
      {"OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + std::to_string(ntohs(a.sin_port))},
      {"OTEL_EXPORTER_OTLP_PROTOCOL", protocol() == "grpc" ? "grpc" : "http/protobuf"},
      {"OTEL_METRIC_EXPORT_INTERVAL", "200"}};
  PushingJvm jvm(jdk(), "ThreadStates", env);
  ASSERT_GT(jvm.port, 0);
  // Until a batch waits behind one stuck on the silent endpoint (bounded).
  bool stuck = false;
  for (auto until = std::chrono::steady_clock::now() + 10s; !stuck && std::chrono::steady_clock::now() < until;)
    stuck = PromScrape(http_get(jvm.port, "/metrics").body)
                .value("jvmsight_otlp_queue_length", {{"signal", "metrics"}})
                .value_or(0) >= 1;
  ASSERT_TRUE(stuck) << "no export ever waited on the silent endpoint";
  auto start = std::chrono::steady_clock::now();
  jvm.process->send("exit");
  auto status = jvm.process->wait(10s);
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  close(fd);
  ASSERT_TRUE(status) << "JVM did not exit";
  EXPECT_EQ(*status, 0);
  EXPECT_LT(took.count(), 2500) << "exit took " << took.count() << " ms";
}

// Without an endpoint nothing OTLP is loaded: no plugin, no gRPC in the process.
class OtlpOff : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(OtlpOff, system_jdks());

TEST_P(OtlpOff, NoEndpointLoadsNothing) {
  PushingJvm jvm(GetParam(), "ThreadStates", {});
  ASSERT_GT(jvm.port, 0);
  EXPECT_FALSE(maps_library(jvm.process->pid(), "libjvmsight-otlp.so"));
  EXPECT_FALSE(maps_library(jvm.process->pid(), "libnghttp2"));
  EXPECT_FALSE(maps_library(jvm.process->pid(), "libprotobuf"));
  EXPECT_EQ(jvm.process->err().find("OTLP"), std::string::npos) << jvm.process->err();
  EXPECT_FALSE(PromScrape(http_get(jvm.port, "/metrics").body)
                   .value("jvmsight_otlp_exports_total", {{"signal", "metrics"}, {"result", "sent"}}));
}

}  // namespace
}  // namespace jvmsight::test
