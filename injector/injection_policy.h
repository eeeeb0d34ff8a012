#pragma once
// Whether and where a pod gets the agent: the annotation contract
// (docs/KUBERNETES.md, "Injection by annotation").
//   jvmsight.io/inject           "true" opts a pod in, "false" out of its
//                                namespace's opt-in (annotation, or label)
//   jvmsight.io/container-names  "a,b": the Java containers (default: the first)
//   jvmsight.io/options          agent options over the injector's defaults
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "injector/config.h"

namespace jvmsight::injector {

inline constexpr const char* inject_key = "jvmsight.io/inject";
inline constexpr const char* container_names_key = "jvmsight.io/container-names";
inline constexpr const char* options_key = "jvmsight.io/options";
// The init container and volume: their presence marks a pod as injected
// (by this webhook, the kustomize component or the chart's templates).
inline constexpr const char* agent_volume = "jvmsight-agent";

struct InjectionPlan {
  bool inject = false;
  std::string skip_reason;  // a metric label value when not injecting
  std::vector<std::string> warnings;
  std::vector<size_t> containers;  // indexes into spec.containers
  std::string agent_options;       // validated, merged key=value,...
  int port = 0;                    // the first container's; 0 when the agent picks one
};

// Decides for a pod object (request.object of a CREATE review).
// namespace_opted_in: the review came through the webhook entry that selects
// namespaces labelled jvmsight.io/inject=true.
InjectionPlan plan_injection(const nlohmann::json& pod, bool namespace_opted_in, const InjectorConfig& config);

// The defaults with the override's keys replaced or added, checked with the
// agent's own options table; "" and out set, or why not.
std::string merge_agent_options(const std::string& defaults, const std::string& override, std::string& out, int& port);

}  // namespace jvmsight::injector
