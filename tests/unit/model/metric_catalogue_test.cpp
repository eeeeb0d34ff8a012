// The metric catalogue: a collector can only create a family the catalogue
// lists, with the catalogue's type and help; the rows are consistent; the
// runtime and process families (pure, fed every reading) are catalogued
// with their labels and values. A real JVM's scrape is checked in
// tests/integration/exporters/metric_catalogue_test.cpp.
#include "model/metric_catalogue.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>

#include "collectors/runtime/runtime_families.h"

namespace jvmsight {
namespace {

// Every family catalogued under its own type and help; every label one the
// row lists, with an allowed value where the row closes the set.
std::string mismatches(const MetricFamilies& families) {
  std::string diff;
  for (const auto& f : families) {
    const MetricDef* row = find_metric(f.name);
    if (row == nullptr) {
      diff += f.name + " not catalogued; ";
      continue;
    }
    if (row->type != f.type) diff += f.name + ": type differs; ";
    if (f.help != row->help && f.help != row->v0_help) diff += f.name + ": help differs; ";
    for (const auto& s : f.samples)
      for (const auto& l : s.labels) {
        const AttributeRename* a = nullptr;
        for (const auto& candidate : row->otlp.attributes)
          if (candidate.label == l.name) a = &candidate;
        if (a == nullptr)
          diff += f.name + ": label " + l.name + " not catalogued; ";
        else if (!a->values.empty() && std::find(a->values.begin(), a->values.end(), l.value) == a->values.end())
          diff += f.name + ": " + l.name + "=" + l.value + " not allowed; ";
      }
  }
  return diff;
}

TEST(MetricCatalogue, AFamilyTheCatalogueLacksCannotBeCreated) {
  MetricFamilies out;
  EXPECT_THROW(add_family(out, "jvmsight_not_in_the_catalogue"), std::invalid_argument);
  EXPECT_TRUE(out.empty());
  auto& f = add_family(out, "jvm_threads_state");
  EXPECT_EQ(f.type, MetricType::gauge);
  EXPECT_EQ(f.help, "Current count of threads by state");  // client_java's HELP
}

TEST(MetricCatalogue, EachGenerationGetsItsOwnNameAndHelp) {
  MetricFamilies out;
  EXPECT_EQ(add_family(out, "jvm_info").help, "VM version info");
  EXPECT_EQ(add_family(out, "jvm_runtime_info").help, "JVM runtime info");
  EXPECT_EQ(find_metric("jvm_memory_bytes_used"), find_metric("jvm_memory_used_bytes"));
  // A 0.x name is sent over OTLP once, under the 1.x row.
  EXPECT_EQ(otlp_of("jvm_memory_bytes_used").name, "");
  EXPECT_EQ(otlp_of("jvm_memory_used_bytes").name, "jvmsight.memory.area.used");
}

TEST(MetricCatalogue, NamesAreUniqueAndSharedOtlpNamesAgree) {
  std::set<std::string> names;
  std::map<std::string, const MetricDef*> by_otlp;
  for (const auto& row : metric_catalogue()) {
    EXPECT_TRUE(names.insert(row.name).second) << row.name;
    if (!row.v0_name.empty()) {
      EXPECT_TRUE(names.insert(row.v0_name).second) << row.v0_name;
    }
    EXPECT_FALSE(row.collector.empty()) << row.name;
    EXPECT_FALSE(row.help.empty()) << row.name;
    if (row.otlp.name.empty()) continue;
    auto [it, first] = by_otlp.emplace(row.otlp.name, &row);
    if (first) continue;
    // Only jvm.thread.count has two sources (with and without the daemon flag).
    EXPECT_EQ(row.otlp.name, "jvm.thread.count");
    EXPECT_EQ(row.otlp.unit, it->second->otlp.unit);
    EXPECT_EQ(row.otlp.instrument, it->second->otlp.instrument);
    EXPECT_EQ(row.otlp.integer, it->second->otlp.integer);
  }
  EXPECT_LT(catalogue_rank("jvmsight_threads_state_by_daemon"), catalogue_rank("jvm_threads_state"));
}

// The project's own names: a collector's Prometheus exporter (dots to
// underscores, "_seconds" for unit s, "_total" for monotonic sums) gives
// back /metrics' name.
TEST(MetricCatalogue, OwnOtlpNamesRoundTripThroughPrometheusNaming) {
  size_t own = 0;
  for (const auto& row : metric_catalogue()) {
    if (row.name.rfind("jvmsight_", 0) != 0 || row.otlp.name.rfind("jvmsight.", 0) != 0) continue;
    std::string s = row.otlp.name;
    for (auto& c : s)
      if (c == '.') c = '_';
    if (row.otlp.unit == "s") s += "_seconds";
    if (row.otlp.instrument == Instrument::monotonic_sum) s += "_total";
    EXPECT_EQ(s, row.name);
    ++own;
  }
  EXPECT_GT(own, 40u);
}

TEST(MetricCatalogue, RuntimeAndProcessFamiliesAreCatalogued) {
  RuntimeReading jvm;
  jvm.heap = MemoryUsageReading{1, 2, 3, 4};
  jvm.nonheap = MemoryUsageReading{1, 2, 3, -1};
  jvm.pending_finalization = 0;
  jvm.pools = {{"G1 Eden Space", "heap", {1, 2, 3, -1}, MemoryUsageReading{0, 1, 2, -1}},
               {"Metaspace", "non_heap", {0, 1, 2, -1}, std::nullopt}};
  jvm.pools_read = true;
  jvm.buffer_pools = {{"direct", 1, 2, 3}};
  jvm.buffer_pools_read = true;
  jvm.classes = ClassLoadingReading{1, 2, 3};
  jvm.compilation_ms = 10;
  jvm.os = {4, 0.5, 0.5, 1.5};
  MetricFamilies out;
  add_runtime_families(out, jvm, JvmIdentity{}, NameGenerations{});
  add_process_families(out, ProcessStats{1, 2, 3, 4, 5, 6});
  EXPECT_EQ(mismatches(out), "");
  // Every runtime row (both generations) was written: nothing of the
  // collector is missing from the catalogue, nor the reverse.
  std::set<std::string> written, catalogued;
  for (const auto& f : out) written.insert(f.name);
  for (const auto& row : metric_catalogue()) {
    if (row.collector != "runtime" || row.name.rfind("jvmsight_process_cpu_", 0) == 0) continue;
    catalogued.insert(row.name);
    if (!row.v0_name.empty()) catalogued.insert(row.v0_name);
  }
  EXPECT_EQ(written, catalogued);
}

TEST(MetricCatalogue, ClosedLabelSetsRefuseOtherValues) {
  MetricFamilies out;
  add_sample(add_family(out, "jvmsight_lock_waiting_threads"), 1, {{"kind", "spinlock"}});
  EXPECT_NE(mismatches(out), "");
}

}  // namespace
}  // namespace jvmsight
