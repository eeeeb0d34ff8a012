#include "collectors/runtime/runtime_families.h"

#include <string>

#include "model/metric_catalogue.h"

namespace jvmsight {
namespace {

void add_gauge(MetricFamilies& out, const char* name, const std::optional<double>& value) {
  if (value) add_sample(add_family(out, name), *value);
}

// A memory usage with the label that tells it apart (area or pool), and
// the OTLP-only attributes of its samples (a pool's jvm.memory.type).
struct LabelledUsage {
  Label label;
  MemoryUsageReading usage;
  std::vector<Label> otlp_attributes;
};

std::vector<Label> pool_type(const std::string& type) {
  if (type.empty()) return {};
  return {{"jvm.memory.type", type}};
}

void add_usage_sample(MetricFamily& f, double value, const Label& label, const std::vector<Label>& otlp_attributes) {
  add_sample(f, value, {label});
  f.samples.back().otlp_attributes = otlp_attributes;
}

// One MemoryUsage field of each usage, under the name of each chosen
// generation (the memory families were renamed between 0.x and 1.x).
void add_usage_family(MetricFamilies& out, NameGenerations names, const char* v0_name, const char* v1_name,
                      const std::vector<LabelledUsage>& usages, double MemoryUsageReading::*field) {
  for (const char* name : {names.v0 ? v0_name : nullptr, names.v1 ? v1_name : nullptr}) {
    if (name == nullptr) continue;
    auto& f = add_family(out, name);
    for (const auto& u : usages) add_usage_sample(f, u.usage.*field, u.label, u.otlp_attributes);
  }
}

std::vector<LabelledUsage> areas(const RuntimeReading& jvm) {
  std::vector<LabelledUsage> out;
  if (jvm.heap) out.push_back({{"area", "heap"}, *jvm.heap, {}});
  if (jvm.nonheap) out.push_back({{"area", "nonheap"}, *jvm.nonheap, {}});
  return out;
}

std::vector<LabelledUsage> pools(const RuntimeReading& jvm) {
  std::vector<LabelledUsage> out;
  for (const auto& p : jvm.pools) out.push_back({{"pool", p.name}, p.usage, pool_type(p.type)});
  return out;
}

// Same name in both generations; only pools the GC reports on.
void add_collection_family(MetricFamilies& out, const RuntimeReading& jvm, const char* name,
                           double MemoryUsageReading::*field) {
  if (!jvm.pools_read) return;
  auto& f = add_family(out, name);
  for (const auto& p : jvm.pools)
    if (p.collection_usage) add_usage_sample(f, (*p.collection_usage).*field, {"pool", p.name}, pool_type(p.type));
}

void add_memory(MetricFamilies& out, const RuntimeReading& jvm, NameGenerations names) {
  using U = MemoryUsageReading;
  add_gauge(out, "jvm_memory_objects_pending_finalization", jvm.pending_finalization);
  if (auto a = areas(jvm); !a.empty()) {
    add_usage_family(out, names, "jvm_memory_bytes_used", "jvm_memory_used_bytes", a, &U::used);
    add_usage_family(out, names, "jvm_memory_bytes_committed", "jvm_memory_committed_bytes", a, &U::committed);
    add_usage_family(out, names, "jvm_memory_bytes_max", "jvm_memory_max_bytes", a, &U::max);
    add_usage_family(out, names, "jvm_memory_bytes_init", "jvm_memory_init_bytes", a, &U::init);
  }
  if (jvm.pools_read) {
    auto p = pools(jvm);
    add_usage_family(out, names, "jvm_memory_pool_bytes_used", "jvm_memory_pool_used_bytes", p, &U::used);
    add_usage_family(out, names, "jvm_memory_pool_bytes_committed", "jvm_memory_pool_committed_bytes", p,
                     &U::committed);
    add_usage_family(out, names, "jvm_memory_pool_bytes_max", "jvm_memory_pool_max_bytes", p, &U::max);
    add_usage_family(out, names, "jvm_memory_pool_bytes_init", "jvm_memory_pool_init_bytes", p, &U::init);
  }
  add_collection_family(out, jvm, "jvm_memory_pool_collection_used_bytes", &U::used);
  add_collection_family(out, jvm, "jvm_memory_pool_collection_committed_bytes", &U::committed);
  add_collection_family(out, jvm, "jvm_memory_pool_collection_max_bytes", &U::max);
  add_collection_family(out, jvm, "jvm_memory_pool_collection_init_bytes", &U::init);
}

void add_buffer_pools(MetricFamilies& out, const RuntimeReading& jvm) {
  if (!jvm.buffer_pools_read) return;
  auto& used = add_family(out, "jvm_buffer_pool_used_bytes");
  auto& capacity = add_family(out, "jvm_buffer_pool_capacity_bytes");
  auto& buffers = add_family(out, "jvm_buffer_pool_used_buffers");
  for (const auto& b : jvm.buffer_pools) {
    add_sample(used, b.used_bytes, {{"pool", b.name}});
    add_sample(capacity, b.capacity_bytes, {{"pool", b.name}});
    add_sample(buffers, b.count, {{"pool", b.name}});
  }
}

void add_classes_and_compilation(MetricFamilies& out, const RuntimeReading& jvm, NameGenerations names) {
  // client_java up to 0.11 called the gauge jvm_classes_loaded (renamed in
  // 0.12 because OpenMetrics reads it as the counter below); dashboards still
  // chart it, and the 0.0.4 text format keeps the two apart.
  if (jvm.classes && names.v0) add_sample(add_family(out, "jvm_classes_loaded"), jvm.classes->loaded);
  if (jvm.classes) {
    add_sample(add_family(out, "jvm_classes_currently_loaded"), jvm.classes->loaded);
    add_sample(add_family(out, "jvm_classes_loaded_total"), jvm.classes->total_loaded);
    add_sample(add_family(out, "jvm_classes_unloaded_total"), jvm.classes->unloaded);
  }
  if (jvm.compilation_ms)
    add_sample(add_family(out, "jvm_compilation_time_seconds_total"), *jvm.compilation_ms / 1000.0);
}

// Not client_java's: what the OpenTelemetry Java agent reads for
// jvm.cpu.count, jvm.cpu.recent_utilization and the jvm.system.cpu pair.
void add_cpu(MetricFamilies& out, const OsReading& os) {
  add_gauge(out, "jvmsight_available_processors", os.available_processors);
  add_gauge(out, "jvmsight_cpu_recent_utilization_ratio", os.process_cpu_load);
  add_gauge(out, "jvmsight_system_cpu_utilization_ratio", os.system_cpu_load);
  add_gauge(out, "jvmsight_system_cpu_load_1m", os.load_average_1m);
}

void add_info(MetricFamilies& out, const JvmIdentity& id, NameGenerations names) {
  std::vector<Label> labels{{"version", id.version}, {"vendor", id.vendor}, {"runtime", id.runtime}};
  if (names.v0) add_sample(add_family(out, "jvm_info"), 1, labels);
  if (names.v1) add_sample(add_family(out, "jvm_runtime_info"), 1, labels);
}

}  // namespace

void add_runtime_families(MetricFamilies& out, const RuntimeReading& jvm, const JvmIdentity& identity,
                          NameGenerations names) {
  add_info(out, identity, names);
  add_memory(out, jvm, names);
  add_buffer_pools(out, jvm);
  add_classes_and_compilation(out, jvm, names);
  add_cpu(out, jvm.os);
}

void add_process_families(MetricFamilies& out, const ProcessStats& p) {
  if (p.cpu_seconds) add_sample(add_family(out, "process_cpu_seconds_total"), *p.cpu_seconds);
  add_gauge(out, "process_start_time_seconds", p.start_time_seconds);
  add_gauge(out, "process_open_fds", p.open_fds);
  add_gauge(out, "process_max_fds", p.max_fds);
  add_gauge(out, "process_virtual_memory_bytes", p.virtual_bytes);
  add_gauge(out, "process_resident_memory_bytes", p.resident_bytes);
}

}  // namespace jvmsight
