#include "exporters/otlp/resource.h"

#include <map>

namespace jvmsight::otlp {
void build_resource(const ProcessFacts& facts, const KeyValues& user_attributes,
                    const std::optional<std::string>& service_name, opentelemetry::proto::resource::v1::Resource& out) {
  // Ordered map: later sources override earlier ones, output is stable.
  std::map<std::string, std::string> strings;
  strings["service.name"] = default_service_name(facts.java_command);
  if (!facts.host_name.empty()) strings["host.name"] = facts.host_name;
  if (!facts.vm_name.empty()) strings["process.runtime.name"] = facts.vm_name;
  if (!facts.vm_version.empty()) strings["process.runtime.version"] = facts.vm_version;
  strings["telemetry.sdk.name"] = "jvmsight";
  strings["telemetry.sdk.language"] = "cpp";
  strings["telemetry.sdk.version"] = facts.agent_version;
  bool user_pid = false;
  for (const auto& [k, v] : user_attributes) {
    strings[k] = v;
    user_pid |= k == "process.pid";
  }
  if (service_name) strings["service.name"] = *service_name;

  out.Clear();
  for (const auto& [k, v] : strings) {
    auto* kv = out.add_attributes();
    kv->set_key(k);
    kv->mutable_value()->set_string_value(v);
  }
  if (!user_pid) {
    auto* kv = out.add_attributes();
    kv->set_key("process.pid");
    kv->mutable_value()->set_int_value(facts.pid);
  }
}

}  // namespace jvmsight::otlp
