// A real JVM's /metrics against the metric catalogue, on every JDK: every
// family served is catalogued under the type and HELP it is served with,
// every label is one its row lists (with an allowed value where the row
// closes the set), and every catalogued family this JVM can give is served.
#include "model/metric_catalogue.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {
namespace {

using namespace std::chrono_literals;

struct ServedFamily {
  std::string type, help;
  std::map<std::string, std::set<std::string>> labels;  // name -> values seen
};

// The Prometheus text format's families, by # TYPE and # HELP, and the
// labels of their samples (a histogram's le and a summary's series folded in).
std::map<std::string, ServedFamily> families_of(const std::string& text) {
  std::map<std::string, ServedFamily> out;
  static const std::regex label(R"re(([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)")re");
  std::istringstream lines(text);
  std::string current;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("# TYPE ", 0) == 0) {
      std::istringstream f(line.substr(7));
      f >> current;
      f >> out[current].type;
    } else if (line.rfind("# HELP ", 0) == 0) {
      const size_t space = line.find(' ', 7);
      out[line.substr(7, space - 7)].help = line.substr(space + 1);
    } else if (!line.empty() && line[0] != '#' && !current.empty()) {
      const size_t brace = line.find('{');
      if (brace == std::string::npos) continue;
      const std::string labels = line.substr(brace, line.rfind('}') - brace);
      for (auto it = std::sregex_iterator(labels.begin(), labels.end(), label); it != std::sregex_iterator(); ++it)
        if ((*it)[1] != "le") out[current].labels[(*it)[1]].insert((*it)[2]);
    }
  }
  return out;
}

std::string mismatches(const std::map<std::string, ServedFamily>& served) {
  std::string diff;
  for (const auto& [name, f] : served) {
    const MetricDef* row = find_metric(name);
    if (row == nullptr) {
      diff += name + " is not catalogued; ";
      continue;
    }
    if (f.type != type_name(row->type)) diff += name + ": served as " + f.type + "; ";
    if (f.help != row->help && f.help != row->v0_help) diff += name + ": HELP differs; ";
    for (const auto& [label, values] : f.labels) {
      const AttributeRename* a = nullptr;
      for (const auto& candidate : row->otlp.attributes)
        if (candidate.label == label) a = &candidate;
      if (a == nullptr) {
        diff += name + ": label " + label + " is not catalogued; ";
        continue;
      }
      for (const auto& v : values)
        if (!a->values.empty() && std::find(a->values.begin(), a->values.end(), v) == a->values.end())
          diff += name + ": " + label + "=" + v + " is not allowed; ";
    }
  }
  return diff;
}

// Catalogued families this JVM, with the default options plus
// pinning=auto (pinning is off by default) and no OTLP, may rightly leave out.
bool may_be_absent(const MetricDef& row, const Jdk& jdk) {
  if (row.collector == "otlp") return true;                             // OTLP is off
  if (row.name == "jvmsight_gc_concurrent_cycle_seconds") return true;  // ZGC and Shenandoah only (G1 here)
  const bool virtual_threads =
      row.name.rfind("jvmsight_virtual_threads_", 0) == 0 && row.name != "jvmsight_virtual_threads_supported";
  if (virtual_threads || row.collector == "pinning") return jdk.feature < 21;
  return false;
}

class MetricCatalogueScrape : public ::testing::TestWithParam<Jdk> {};
JVMSIGHT_JDKS(MetricCatalogueScrape, all_jdks());

TEST_P(MetricCatalogueScrape, EveryServedFamilyIsCataloguedAndEveryCataloguedOneServed) {
  AgentJvm jvm(GetParam(), "RuntimeTruth", {}, "pinning=auto");
  ASSERT_GT(jvm.port, 0);
  jvm.process->send("churn 8");  // a collection: the allocation counter and after-GC pools
  ASSERT_TRUE(jvm.process->wait_for_line("CHURNED", 60s));
  std::set<std::string> missing;
  std::map<std::string, ServedFamily> served;
  // The deadlock check's families arrive with its first check (within 2 s).
  for (auto until = std::chrono::steady_clock::now() + 15s; std::chrono::steady_clock::now() < until;) {
    auto r = jvm.get("/metrics");
    ASSERT_EQ(r.status, 200);
    served = families_of(r.body);
    missing.clear();
    for (const auto& row : metric_catalogue()) {
      if (may_be_absent(row, GetParam())) continue;
      if (!served.count(row.name)) missing.insert(row.name);
      if (!row.v0_name.empty() && !served.count(row.v0_name)) missing.insert(row.v0_name);
    }
    if (missing.empty()) break;
    std::this_thread::sleep_for(500ms);
  }
  std::string absent;
  for (const auto& name : missing) absent += name + " ";
  EXPECT_EQ(absent, "");
  EXPECT_EQ(mismatches(served), "");
}

}  // namespace
}  // namespace jvmsight::test
