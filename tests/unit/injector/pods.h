#pragma once
// Pods as the API server sends them, the injector's decision on one, and
// its patch applied with nlohmann::json::patch (the library's RFC 6902
// implementation, not ours), read back as the kubelet would.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "injector/admission.h"

namespace jvmsight::injector::test {

using nlohmann::json;

inline json pod(json annotations, json containers) {
  return {{"apiVersion", "v1"},
          {"kind", "Pod"},
          {"metadata", {{"generateName", "shop-6b8f9-"}, {"annotations", std::move(annotations)}}},
          {"spec", {{"containers", std::move(containers)}}}};
}

inline json app(const std::string& name, json env = nullptr) {
  json c = {{"name", name}, {"image", "eclipse-temurin:21"}};
  if (!env.is_null()) c["env"] = std::move(env);
  return c;
}

inline AdmissionDecision review(const json& object, bool namespace_opted_in = false, InjectorConfig config = {}) {
  AdmissionRequest request{"uid-1", "CREATE", "Pod", object};
  return decide(request, namespace_opted_in, config);
}

inline json patched(const json& object, const AdmissionDecision& d) {
  EXPECT_TRUE(d.injected) << d.skip_reason;
  return object.patch(d.patch);
}

// name -> value (or "<valueFrom>") of a container's env, in order.
inline std::vector<std::pair<std::string, std::string>> env_of(const json& container) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& e : container.value("env", json::array()))
    out.emplace_back(e["name"], e.contains("value") ? e["value"].get<std::string>() : "<valueFrom>");
  return out;
}

inline std::string env_value(const json& container, const std::string& name) {
  for (const auto& [n, v] : env_of(container))
    if (n == name) return v;
  return "<absent>";
}

}  // namespace jvmsight::injector::test
