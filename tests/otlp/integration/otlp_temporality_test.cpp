// OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE=delta, decoded by the
// receivers on both transports: each export carries only what happened since
// the previous one, the intervals join up, and a delta stream summed over
// time equals the cumulative one (the GarbageCollectorMXBeans' counts, which
// /metrics serves cumulatively as jvm_gc_collection_seconds_count).
#include <gtest/gtest.h>

#include <sstream>
#include <tuple>

#include "tests/harness/http_client.h"
#include "tests/harness/prometheus_text.h"
#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

namespace pb = opentelemetry::proto::metrics::v1;
using Param = JdkAndProtocol;

std::string gc_name(const pb::HistogramDataPoint& p) {
  for (const auto& kv : p.attributes())
    if (kv.key() == "gc") return kv.value().string_value();
  return "";
}

class OtlpTemporality : public ::testing::TestWithParam<Param> {};
INSTANTIATE_TEST_SUITE_P(Jdks, OtlpTemporality,
                         ::testing::Combine(::testing::ValuesIn(system_jdks().list()),
                                            ::testing::Values("grpc", "http/protobuf")),
                         jdk_and_protocol_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(OtlpTemporality);

TEST_P(OtlpTemporality, DeltaSummedOverTimeEqualsTheCumulativeCount) {
  const auto& [jdk, protocol] = GetParam();
  auto receiver = start_receiver(protocol);
  ASSERT_TRUE(receiver);
  auto env = push_env(*receiver, protocol);
  env["OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE"] = "delta";
  PushingJvm jvm(jdk, "GcChurn", env, {"-XX:+UseSerialGC", "-Xmx256m"});
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("churn 3 200");
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));
  jvm.process->send("gc");
  std::string line = jvm.process->wait_for_line("GC ", 30s).value_or("GC ");
  std::map<std::string, long> beans;  // "GC Copy=3/12;MarkSweepCompact=3/40"
  std::stringstream entries(line.substr(3));
  for (std::string e; std::getline(entries, e, ';');)
    beans[e.substr(0, e.find('='))] = std::stol(e.substr(e.find('=') + 1));
  ASSERT_GE(beans["MarkSweepCompact"], 3) << line;

  std::string diff = "nothing compared";
  for (auto until = std::chrono::steady_clock::now() + 20s;
       !diff.empty() && std::chrono::steady_clock::now() < until;) {
    size_t seen = receiver->received().size();
    ASSERT_TRUE(receiver->wait_for_more_than(seen, 10s));
    std::map<std::string, long> summed;
    std::map<std::string, uint64_t> last_end;  // per series: the previous point's time
    diff.clear();
    for (const auto& r : receiver->received()) {
      const pb::Metric* m = find_metric(r.request, "jvmsight.gc.collection");
      if (m == nullptr) continue;
      if (m->histogram().aggregation_temporality() != pb::AGGREGATION_TEMPORALITY_DELTA) diff = "not delta; ";
      for (const auto& p : m->histogram().data_points()) {
        summed[gc_name(p)] += static_cast<long>(p.count());
        auto& end = last_end[gc_name(p)];
        if (end != 0 && p.start_time_unix_nano() != end) diff += "an interval does not start where the last ended; ";
        end = p.time_unix_nano();
      }
    }
    PromScrape cumulative(http_get(jvm.port, "/metrics").body);
    for (const auto& [gc, count] : beans) {
      if (summed[gc] != count)
        diff += gc + ": deltas sum to " + std::to_string(summed[gc]) + ", beans " + std::to_string(count) + "; ";
      if (cumulative.value("jvm_gc_collection_seconds_count", {{"gc", gc}}).value_or(-1) != count)
        diff += gc + ": /metrics disagrees with the beans; ";
    }
  }
  EXPECT_EQ(diff, "");
}

}  // namespace
}  // namespace jvmsight::test
