// Every OTLP metrics export of a real JVM (every JDK, both transports)
// against the semantic conventions as their own package states them (npm
// @opentelemetry/semantic-conventions, pinned in cmake/semconv.lock: metric
// names, attribute keys, enum values, deprecations) and against the
// metric catalogue's names, units, instruments, value types, attribute keys
// and allowed values (model/metric_catalogue.h; units and instruments
// written from semantic-conventions model/jvm/*.yaml).
// The resource is compared with what the JVM itself says
// (java -XshowSettings:properties).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "model/metric_catalogue.h"
#include "tests/harness/jvm_process.h"
#include "tests/otlp/integration/pushing_jvm.h"

namespace jvmsight::test {
namespace {

namespace pb = opentelemetry::proto::metrics::v1;
using Param = JdkAndProtocol;

// The package's constants: `const NAME = "value";`, each after its doc
// comment (which says @deprecated for deprecated ones).
struct Semconv {
  std::set<std::string> metrics, stable_metrics, deprecated_metrics, attributes;
  std::map<std::string, std::set<std::string>> enums;  // attribute key -> allowed values
};

const Semconv& semconv() {
  static const Semconv s = [] {
    Semconv out;
    std::map<std::string, std::string> attr_by_const;  // JVM_MEMORY_TYPE -> jvm.memory.type
    std::vector<std::pair<std::string, std::string>> values;
    for (const char* file :
         {"stable_metrics.mjs", "experimental_metrics.mjs", "stable_attributes.mjs", "experimental_attributes.mjs"}) {
      std::ifstream in(std::string(JVMSIGHT_SEMCONV_DIR) + "/" + file);
      std::stringstream text;
      text << in.rdbuf();
      const std::string all = text.str();
      static const std::regex constant(R"re(const ([A-Z0-9_]+) = "([^"]*)";)re");
      size_t previous_end = 0;
      for (auto it = std::sregex_iterator(all.begin(), all.end(), constant); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1], value = (*it)[2];
        const bool deprecated =
            all.substr(previous_end, it->position(0) - previous_end).find("@deprecated") != std::string::npos;
        previous_end = it->position(0) + it->length(0);
        if (name.rfind("METRIC_", 0) == 0) {
          out.metrics.insert(value);
          if (deprecated) out.deprecated_metrics.insert(value);
          if (std::string(file).rfind("stable", 0) == 0) out.stable_metrics.insert(value);
        } else if (name.rfind("ATTR_", 0) == 0) {
          out.attributes.insert(value);
          attr_by_const[name.substr(5)] = value;
        } else if (name.find("_VALUE_") != std::string::npos) {
          values.emplace_back(name.substr(0, name.find("_VALUE_")), value);
        }
      }
    }
    for (const auto& [prefix, value] : values)
      if (attr_by_const.count(prefix)) out.enums[attr_by_const[prefix]].insert(value);
    return out;
  }();
  return s;
}

// The catalogue's OTLP side of the rows sending this name (the first: rows
// sharing a name agree, tests/unit/metric_catalogue_test.cpp).
const OtlpName* catalogue_row(const std::string& otlp_name) {
  for (const auto& row : metric_catalogue())
    if (row.otlp.name == otlp_name) return &row.otlp;
  return nullptr;
}

// Every attribute key one the catalogue lists for this name, and where it
// closes the set, a value it allows (after the row's value style).
std::string check_attributes(
    const std::string& metric,
    const google::protobuf::RepeatedPtrField<opentelemetry::proto::common::v1::KeyValue>& attributes) {
  std::string diff;
  for (const auto& kv : attributes) {
    const std::string value =
        kv.value().has_bool_value() ? (kv.value().bool_value() ? "true" : "false") : kv.value().string_value();
    bool listed = false, allowed = false;
    for (const auto& row : metric_catalogue()) {
      if (row.otlp.name != metric) continue;
      for (const auto& a : row.otlp.attributes) {
        if (a.attribute != kv.key()) continue;
        listed = true;
        allowed = allowed || a.values.empty();
        for (const auto& v : a.values) allowed = allowed || attribute_value(a.style, v) == value;
      }
    }
    if (!listed) diff += metric + ": attribute " + kv.key() + " is not in the catalogue; ";
    if (listed && !allowed) diff += metric + ": " + kv.key() + "='" + value + "' is not allowed by the catalogue; ";
  }
  return diff;
}

std::string instrument_of(const pb::Metric& m) {
  if (m.has_gauge()) return "gauge";
  if (m.has_histogram()) return "histogram";
  if (m.has_sum()) return m.sum().is_monotonic() ? "counter" : "updowncounter";
  return "other";  // Summary, exponential histogram: not expected here
}

std::string instrument_of(Instrument i) {
  switch (i) {
    case Instrument::gauge:
      return "gauge";
    case Instrument::updown_sum:
      return "updowncounter";
    case Instrument::monotonic_sum:
      return "counter";
    case Instrument::histogram:
      return "histogram";
  }
  return "?";
}

template <class Points>
void check_points(const std::string& metric, const Points& points, bool integer, bool convention, std::string& diff) {
  const Semconv& sc = semconv();
  for (const auto& p : points) {
    diff += check_attributes(metric, p.attributes());
    if constexpr (std::is_same_v<std::decay_t<decltype(p)>, pb::NumberDataPoint>) {
      if (integer != (p.value_case() == pb::NumberDataPoint::kAsInt))
        diff += metric + ": value type is not " + (integer ? "int" : "double") + "; ";
    }
    if (!convention) continue;
    for (const auto& kv : p.attributes()) {
      if (!sc.attributes.count(kv.key())) diff += metric + ": attribute " + kv.key() + " is no convention; ";
      auto e = sc.enums.find(kv.key());
      if (e != sc.enums.end() && !e->second.count(kv.value().string_value()))
        diff += metric + ": " + kv.key() + "='" + kv.value().string_value() + "' is no allowed value; ";
    }
  }
}

// One export: names, attributes and enum values against the package, units,
// instruments and value types against the catalogue.
std::string check_export(const MetricsRequest& request) {
  const Semconv& sc = semconv();
  std::string diff;
  for (const auto& rm : request.resource_metrics())
    for (const auto& sm : rm.scope_metrics())
      for (const auto& m : sm.metrics()) {
        const bool ours = m.name().rfind("jvmsight.", 0) == 0;
        if (!ours && !sc.metrics.count(m.name())) diff += m.name() + " is not in the conventions; ";
        if (sc.deprecated_metrics.count(m.name())) diff += m.name() + " is deprecated; ";
        const OtlpName* row = catalogue_row(m.name());
        if (row == nullptr) diff += m.name() + " has no catalogue row; ";
        if (row != nullptr) {
          if (m.unit() != row->unit)
            diff += m.name() + ": unit '" + m.unit() + "' vs '" + std::string(row->unit) + "'; ";
          if (instrument_of(m) != instrument_of(row->instrument))
            diff += m.name() + ": " + instrument_of(m) + " vs " + instrument_of(row->instrument) + "; ";
        }
        const bool integer = row != nullptr && row->integer;
        check_points(m.name(), m.gauge().data_points(), integer, !ours, diff);
        check_points(m.name(), m.sum().data_points(), integer, !ours, diff);
        check_points(m.name(), m.histogram().data_points(), false, !ours, diff);
        if (m.has_summary() || m.has_exponential_histogram()) diff += m.name() + ": unexpected data type; ";
      }
  return diff;
}

// java -XshowSettings:properties -version: "    key = value" lines on stderr.
std::map<std::string, std::string> jvm_properties(const Jdk& jdk) {
  Process p({jdk.tool("java"), "-XshowSettings:properties", "-version"});
  p.wait(30s);
  std::map<std::string, std::string> out;
  std::istringstream lines(p.err());
  for (std::string line; std::getline(lines, line);) {
    const size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq);
    key.erase(0, key.find_first_not_of(' '));
    out[key] = line.substr(eq + 3);
  }
  return out;
}

// The process's soft limit on open files as the kernel states it
// (/proc/<pid>/limits, "Max open files  <soft>  <hard>  files"); -1 if unread.
int64_t soft_open_files_limit(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/limits");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("Max open files", 0) != 0) continue;
    std::istringstream fields(line.substr(std::string("Max open files").size()));
    std::string soft;
    fields >> soft;
    return soft == "unlimited" ? -1 : std::stoll(soft);
  }
  return -1;
}

class SemconvConformance : public ::testing::TestWithParam<Param> {
 protected:
  const Jdk& jdk() const { return std::get<0>(GetParam()); }
  const std::string& protocol() const { return std::get<1>(GetParam()); }
};
INSTANTIATE_TEST_SUITE_P(Jdks, SemconvConformance,
                         ::testing::Combine(::testing::ValuesIn(all_jdks().list()),
                                            ::testing::Values("grpc", "http/protobuf")),
                         jdk_and_protocol_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(SemconvConformance);

TEST_P(SemconvConformance, EveryExportMatchesTheConventionsAndTheCatalogue) {
  ASSERT_FALSE(semconv().stable_metrics.empty()) << "semantic conventions package not read from " JVMSIGHT_SEMCONV_DIR;
  ASSERT_TRUE(semconv().enums.at("jvm.memory.type").count("non_heap"));
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "RuntimeTruth", push_env(*receiver, protocol()));
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("churn 8");  // a collection: jvm.gc.duration and used_after_last_gc
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));

  // Every stable JVM metric of the package arrives (bounded: a pause settles late).
  std::set<std::string> wanted;
  for (const auto& name : semconv().stable_metrics)
    if (name.rfind("jvm.", 0) == 0) wanted.insert(name);
  ASSERT_EQ(wanted.size(), 12u);
  std::set<std::string> missing = wanted;
  for (auto until = std::chrono::steady_clock::now() + 20s;
       !missing.empty() && std::chrono::steady_clock::now() < until;) {
    size_t seen = receiver->received().size();
    ASSERT_TRUE(receiver->wait_for_more_than(seen, 10s)) << jvm.process->err();
    missing = wanted;
    for (const auto& name : wanted)
      if (find_metric(receiver->received().back().request, name)) missing.erase(name);
  }
  std::string absent;
  for (const auto& name : missing) absent += name + " ";
  EXPECT_EQ(absent, "");

  const auto received = receiver->received();
  for (size_t i = 0; i < received.size(); ++i) EXPECT_EQ(check_export(received[i].request), "") << "export " << i;

  // jvm.memory.type on all four memory metrics, both values present.
  const MetricsRequest& last = received.back().request;
  for (const char* name :
       {"jvm.memory.used", "jvm.memory.committed", "jvm.memory.limit", "jvm.memory.used_after_last_gc"}) {
    const pb::Metric* m = find_metric(last, name);
    ASSERT_NE(m, nullptr) << name;
    std::set<std::string> types;
    for (const auto& p : m->sum().data_points())
      for (const auto& kv : p.attributes())
        if (kv.key() == "jvm.memory.type") types.insert(kv.value().string_value());
    if (std::string(name) == "jvm.memory.used_after_last_gc")
      EXPECT_TRUE(types.count("heap")) << name;  // only pools the GC reports on: heap ones
    else
      EXPECT_EQ(types, (std::set<std::string>{"heap", "non_heap"})) << name;
  }
  // jvm.gc.cause is opt-in (option gc_cause): absent by default.
  for (const auto& p : find_metric(last, "jvm.gc.duration")->histogram().data_points())
    for (const auto& kv : p.attributes()) EXPECT_NE(kv.key(), "jvm.gc.cause");
  const pb::Metric* cpus = find_metric(last, "jvm.cpu.count");
  ASSERT_NE(cpus, nullptr);
  EXPECT_GE(cpus->sum().data_points(0).as_int(), 1);
  EXPECT_LE(cpus->sum().data_points(0).as_int(), static_cast<int64_t>(std::thread::hardware_concurrency()));

  // jvm.file_descriptor.limit: the JVM's own soft limit (HotSpot raises it
  // to the hard one at start, -XX:+MaxFDLimit), as the kernel states it.
  const pb::Metric* fd_limit = find_metric(last, "jvm.file_descriptor.limit");
  ASSERT_NE(fd_limit, nullptr);
  ASSERT_EQ(fd_limit->sum().data_points_size(), 1);
  EXPECT_EQ(fd_limit->unit(), "{file_descriptor}");
  EXPECT_GT(soft_open_files_limit(jvm.process->pid()), 0);
  EXPECT_EQ(fd_limit->sum().data_points(0).as_int(), soft_open_files_limit(jvm.process->pid()));

  // The resource, as the OTel Java SDK builds it, from the JVM's own properties.
  std::map<std::string, std::string> resource;
  for (const auto& kv : last.resource_metrics(0).resource().attributes()) {
    resource[kv.key()] =
        kv.value().has_int_value() ? std::to_string(kv.value().int_value()) : kv.value().string_value();
    EXPECT_TRUE(semconv().attributes.count(kv.key())) << kv.key() << " is no convention";
    auto e = semconv().enums.find(kv.key());
    if (e != semconv().enums.end()) {
      EXPECT_TRUE(e->second.count(resource[kv.key()])) << kv.key();
    }
  }
  auto props = jvm_properties(jdk());
  EXPECT_EQ(resource["service.name"], "unknown_service:java");
  EXPECT_EQ(resource["service.instance.id"].size(), 36u);
  EXPECT_EQ(resource["process.pid"], std::to_string(jvm.process->pid()));
  EXPECT_EQ(resource["process.runtime.name"], props["java.runtime.name"]);
  EXPECT_EQ(resource["process.runtime.version"], props["java.runtime.version"]);
  EXPECT_EQ(resource["process.runtime.description"],
            props["java.vm.vendor"] + " " + props["java.vm.name"] + " " + props["java.vm.version"]);
  EXPECT_EQ(resource["process.executable.path"], props["java.home"] + "/bin/java");
  // As the JVM sees it: inside its root for a JDK run in a Debian 13 root.
  EXPECT_TRUE(std::filesystem::exists(jdk().root + resource["process.executable.path"]));
  EXPECT_EQ(resource["os.type"], "linux");
  EXPECT_EQ(resource["os.description"], props["os.name"] + " " + props["os.version"]);
  EXPECT_FALSE(resource["host.arch"].empty());
  EXPECT_FALSE(resource["host.name"].empty());
  EXPECT_EQ(resource["telemetry.sdk.name"], "jvmsight");
}

// With gc_cause=on, the pauses of the fixture's System.gc() carry
// jvm.gc.cause "System.gc()" (GarbageCollectionNotificationInfo.getGcCause).
TEST_P(SemconvConformance, GcCauseOnRequest) {
  if (protocol() != "grpc") GTEST_SKIP() << "the attribute does not depend on the transport";
  auto receiver = start_receiver(protocol());
  ASSERT_TRUE(receiver);
  PushingJvm jvm(jdk(), "RuntimeTruth", push_env(*receiver, protocol()), {"-XX:+UseSerialGC"}, {}, "gc_cause=on");
  ASSERT_GT(jvm.port, 0);
  // After the first push the GC collector listens to notifications: a
  // collection before that has no cause to give.
  ASSERT_TRUE(receiver->wait_for_more_than(0, 10s)) << jvm.process->err();
  jvm.process->send("churn 8");
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));
  std::set<std::string> causes;
  for (auto until = std::chrono::steady_clock::now() + 20s;
       !causes.count("System.gc()") && std::chrono::steady_clock::now() < until;) {
    size_t seen = receiver->received().size();
    ASSERT_TRUE(receiver->wait_for_more_than(seen, 10s)) << jvm.process->err();
    const MetricsRequest request = receiver->received().back().request;
    if (const pb::Metric* m = find_metric(request, "jvm.gc.duration"))
      for (const auto& p : m->histogram().data_points())
        for (const auto& kv : p.attributes())
          if (kv.key() == "jvm.gc.cause") causes.insert(kv.value().string_value());
  }
  std::string seen;
  for (const auto& c : causes) seen += c + "; ";
  EXPECT_TRUE(causes.count("System.gc()")) << seen << jvm.process->err();
  EXPECT_EQ(check_export(receiver->received().back().request), "");
}

}  // namespace
}  // namespace jvmsight::test
