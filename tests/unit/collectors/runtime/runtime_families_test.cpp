// The client_java runtime and process families: both name generations,
// one family per name, nothing invented for what could not be read.
#include "collectors/runtime/runtime_families.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "collectors/runtime/process_stats.h"
#include "exporters/prometheus/text_format.h"

namespace jvmsight {
namespace {

RuntimeReading reading() {
  RuntimeReading r;
  r.heap = MemoryUsageReading{256, 100, 200, 1024};
  r.nonheap = MemoryUsageReading{7, 50, 60, -1};
  r.pending_finalization = 3;
  r.pools = {{"G1 Eden Space", "heap", {10, 20, 30, -1}, MemoryUsageReading{0, 0, 30, -1}},
             {"Metaspace", "non_heap", {0, 40, 41, -1}, std::nullopt}};
  r.pools_read = true;
  r.buffer_pools = {{"direct", 8192, 8192, 2}, {"mapped", 0, 0, 0}};
  r.buffer_pools_read = true;
  r.classes = ClassLoadingReading{1500, 1600, 100};
  r.compilation_ms = 2500;
  return r;
}

double value(const MetricFamilies& out, const std::string& name, const std::map<std::string, std::string>& labels) {
  const MetricFamily* f = find_family(out, name);
  if (f == nullptr) return -1e9;
  for (const auto& s : f->samples) {
    bool match = true;
    for (const auto& [k, v] : labels) {
      bool found = false;
      for (const auto& l : s.labels) found = found || (l.name == k && l.value == v);
      match = match && found;
    }
    if (match) return s.value;
  }
  return -1e9;
}

MetricFamilies families(NameGenerations names) {
  MetricFamilies out;
  add_runtime_families(out, reading(), JvmIdentity{"17.0.15+6", "Debian", "OpenJDK Runtime Environment"}, names);
  return out;
}

TEST(RuntimeFamilies, BothGenerationsServeRenamedFamiliesUnderEachNameAndSharedOnesOnce) {
  MetricFamilies out = families({true, true});
  std::set<std::string> names;
  for (const auto& f : out) EXPECT_TRUE(names.insert(f.name).second) << "family twice: " << f.name;
  EXPECT_EQ(value(out, "jvm_memory_bytes_used", {{"area", "heap"}}), 100);
  EXPECT_EQ(value(out, "jvm_memory_used_bytes", {{"area", "heap"}}), 100);
  EXPECT_EQ(value(out, "jvm_memory_bytes_max", {{"area", "nonheap"}}), -1);  // undefined stays -1, as client_java
  EXPECT_EQ(value(out, "jvm_memory_init_bytes", {{"area", "heap"}}), 256);
  EXPECT_EQ(value(out, "jvm_memory_committed_bytes", {{"area", "nonheap"}}), 60);
  EXPECT_EQ(value(out, "jvm_memory_pool_bytes_used", {{"pool", "Metaspace"}}), 40);
  EXPECT_EQ(value(out, "jvm_memory_pool_used_bytes", {{"pool", "G1 Eden Space"}}), 20);
  EXPECT_EQ(value(out, "jvm_info", {{"version", "17.0.15+6"}, {"vendor", "Debian"}}), 1);
  EXPECT_EQ(value(out, "jvm_runtime_info", {{"runtime", "OpenJDK Runtime Environment"}}), 1);
  EXPECT_EQ(value(out, "jvm_memory_objects_pending_finalization", {}), 3);
  EXPECT_EQ(value(out, "jvm_classes_currently_loaded", {}), 1500);
  EXPECT_EQ(value(out, "jvm_classes_loaded", {}), 1500);  // the 0.x name before 0.12
  EXPECT_EQ(find_family(out, "jvm_classes_loaded_total")->type, MetricType::counter);
  EXPECT_EQ(value(out, "jvm_classes_unloaded_total", {}), 100);
  EXPECT_EQ(value(out, "jvm_compilation_time_seconds_total", {}), 2.5);
  EXPECT_EQ(value(out, "jvm_buffer_pool_used_buffers", {{"pool", "direct"}}), 2);
  EXPECT_EQ(value(out, "jvm_buffer_pool_capacity_bytes", {{"pool", "direct"}}), 8192);
}

// A pool's MemoryType goes to OTLP (jvm.memory.type) on every pool family,
// and never into /metrics, whose pool families keep client_java's labels.
TEST(RuntimeFamilies, PoolTypeIsAnOtlpOnlyAttribute) {
  MetricFamilies out;
  add_runtime_families(out, reading(), {}, {});
  for (const char* name :
       {"jvm_memory_pool_used_bytes", "jvm_memory_pool_max_bytes", "jvm_memory_pool_collection_used_bytes"}) {
    const MetricFamily* f = find_family(out, name);
    ASSERT_NE(f, nullptr) << name;
    for (const auto& s : f->samples) {
      ASSERT_EQ(s.otlp_attributes.size(), 1u) << name;
      EXPECT_EQ(s.otlp_attributes[0].name, "jvm.memory.type");
      EXPECT_EQ(s.otlp_attributes[0].value, s.labels[0].value == "Metaspace" ? "non_heap" : "heap");
    }
  }
  const std::string text = to_prometheus_text(out);
  EXPECT_EQ(text.find("jvm.memory.type"), std::string::npos);
  EXPECT_NE(text.find("jvm_memory_pool_used_bytes{pool=\"Metaspace\"} 40"), std::string::npos) << text;
}

TEST(RuntimeFamilies, OneGenerationLeavesTheOthersNamesOut) {
  MetricFamilies v0 = families({true, false});
  EXPECT_NE(find_family(v0, "jvm_memory_bytes_used"), nullptr);
  EXPECT_NE(find_family(v0, "jvm_info"), nullptr);
  for (const char* name : {"jvm_memory_used_bytes", "jvm_memory_pool_used_bytes", "jvm_runtime_info"})
    EXPECT_EQ(find_family(v0, name), nullptr) << name;
  MetricFamilies v1 = families({false, true});
  EXPECT_NE(find_family(v1, "jvm_memory_pool_max_bytes"), nullptr);
  for (const char* name : {"jvm_memory_bytes_used", "jvm_memory_pool_bytes_init", "jvm_info", "jvm_classes_loaded"})
    EXPECT_EQ(find_family(v1, name), nullptr) << name;
  // Names shared by both generations are served either way.
  EXPECT_NE(find_family(v0, "jvm_buffer_pool_used_bytes"), nullptr);
  EXPECT_NE(find_family(v1, "jvm_memory_pool_collection_used_bytes"), nullptr);
}

TEST(RuntimeFamilies, CollectionUsageOnlyForPoolsTheCollectorReportsOn) {
  MetricFamilies out = families({true, true});
  const MetricFamily* f = find_family(out, "jvm_memory_pool_collection_used_bytes");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->samples.size(), 1u);
  EXPECT_EQ(f->samples[0].labels[0].value, "G1 Eden Space");
}

TEST(RuntimeFamilies, WhatCouldNotBeReadIsLeftOutNotZero) {
  MetricFamilies out;
  add_runtime_families(out, RuntimeReading{}, JvmIdentity{}, {true, true});
  for (const auto& f : out) EXPECT_TRUE(f.name == "jvm_info" || f.name == "jvm_runtime_info") << f.name;
  EXPECT_EQ(value(out, "jvm_info", {{"version", "unknown"}, {"vendor", "unknown"}, {"runtime", "unknown"}}), 1);
  MetricFamilies process;
  add_process_families(process, ProcessStats{});
  EXPECT_TRUE(process.empty());
}

TEST(RuntimeFamilies, FamilyNamesNeverCollideAcrossTypes) {
  // A counter "x_total" and a gauge "x" or a summary's "x_count" would be one
  // series name of two types in Prometheus.
  MetricFamilies out = families({true, true});
  add_process_families(out, read_process_stats());
  std::map<std::string, MetricType> series;
  for (const auto& f : out) {
    std::vector<std::string> names{f.name};
    if (f.type == MetricType::summary || f.type == MetricType::histogram)
      names = {f.name + "_count", f.name + "_sum", f.name + "_bucket"};
    for (const auto& n : names) EXPECT_TRUE(series.emplace(n, f.type).second) << n;
  }
}

}  // namespace
}  // namespace jvmsight
