#include "injector/injection_policy.h"

#include <utility>

#include "options/options.h"

namespace jvmsight::injector {
namespace {

using nlohmann::json;

// A string member of an object, or "" (absent or not a string).
std::string text_at(const json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

const json& member(const json& object, const char* key) {
  static const json none;
  if (!object.is_object()) return none;
  auto it = object.find(key);
  return it == object.end() ? none : *it;
}

// The annotation wins over the label of the same key.
std::string inject_setting(const json& metadata) {
  std::string annotation = text_at(member(metadata, "annotations"), inject_key);
  return annotation.empty() ? text_at(member(metadata, "labels"), inject_key) : annotation;
}

std::vector<std::pair<std::string, std::string>> split_options(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t pos = 0;
  while (pos <= text.size() && !text.empty()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    size_t eq = item.find('=');
    out.emplace_back(item.substr(0, eq), eq == std::string::npos ? "" : item.substr(eq));
    pos = comma + 1;
  }
  return out;
}

bool is_true(const std::string& v) { return v == "true"; }

// Containers by the jvmsight.io/container-names list, or the first one.
void pick_containers(const json& containers, const std::string& names, InjectionPlan& plan) {
  if (names.empty()) {
    plan.containers.push_back(0);
    return;
  }
  for (auto [name, unused] : split_options(names)) {
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    bool found = false;
    for (size_t i = 0; i < containers.size(); ++i)
      if (text_at(containers[i], "name") == name) {
        plan.containers.push_back(i);
        found = true;
      }
    if (!found) plan.warnings.push_back("jvmsight: no container named '" + name.substr(0, 63) + "' in this pod");
  }
}

}  // namespace

std::string merge_agent_options(const std::string& defaults, const std::string& override, std::string& out, int& port) {
  if (override.find_first_of(" \t\r\n\"'") != std::string::npos || override.size() > 1024)
    return "spaces and quotes have no place in JAVA_TOOL_OPTIONS";
  auto merged = split_options(defaults);
  for (auto& [key, value] : split_options(override)) {
    bool replaced = false;
    for (auto& kv : merged)
      if (kv.first == key) {
        kv.second = value;
        replaced = true;
      }
    if (!replaced) merged.emplace_back(key, value);
  }
  std::string text;
  for (const auto& [key, value] : merged) text += (text.empty() ? "" : ",") + key + value;
  ParsedOptions parsed = parse_options(text);
  if (!parsed.ok()) return parsed.error;
  out = text;
  port = parsed.options.port;
  return "";
}

InjectionPlan plan_injection(const json& pod, bool namespace_opted_in, const InjectorConfig& config) {
  InjectionPlan plan;
  const json& metadata = member(pod, "metadata");
  const json& spec = member(pod, "spec");
  const json& containers = member(spec, "containers");
  const std::string setting = inject_setting(metadata);
  if (setting == "false") {
    plan.skip_reason = "opted_out";
    return plan;
  }
  if (!is_true(setting) && !namespace_opted_in) {
    plan.skip_reason = "not_opted_in";
    return plan;
  }
  if (!metadata.is_object() || !containers.is_array() || containers.empty()) {
    plan.skip_reason = "no_container";
    return plan;
  }
  for (const char* list : {"initContainers", "volumes"})
    for (const json& item : member(spec, list).is_array() ? member(spec, list) : json::array())
      if (text_at(item, "name") == agent_volume) {
        plan.skip_reason = "already_injected";
        return plan;
      }
  const json& annotations = member(metadata, "annotations");
  std::string problem =
      merge_agent_options(config.agent_options, text_at(annotations, options_key), plan.agent_options, plan.port);
  if (!problem.empty()) {
    plan.skip_reason = "invalid_options";
    plan.warnings.push_back("jvmsight: not injected: " + std::string(options_key) + ": " + problem.substr(0, 200));
    return plan;
  }
  pick_containers(containers, text_at(annotations, container_names_key), plan);
  if (plan.containers.empty()) {
    plan.skip_reason = "no_container";
    plan.warnings.push_back("jvmsight: not injected: no container matches " + std::string(container_names_key));
    return plan;
  }
  plan.inject = true;
  return plan;
}

}  // namespace jvmsight::injector
