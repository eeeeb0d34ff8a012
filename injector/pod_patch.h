#pragma once
// The JSON Patch (RFC 6902) that gives a pod the agent, in the shape the
// kustomize component and the Helm chart's templates produce: an init
// container copying the agent into an emptyDir, the volume mounted read-only
// in each Java container, JAVA_TOOL_OPTIONS with the agent appended to the
// container's own value, the metrics port, the jvmsight/injected label, the
// scrape annotations, and OTEL_RESOURCE_ATTRIBUTES with the pod's attributes
// as the OpenTelemetry operator sets them.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "injector/config.h"
#include "injector/injection_policy.h"

namespace jvmsight::injector {

struct PodPatch {
  nlohmann::json operations = nlohmann::json::array();  // empty: nothing to do
  std::vector<std::string> warnings;
  std::string skip_reason;  // set when no container could take the agent
};

PodPatch build_pod_patch(const nlohmann::json& pod, const InjectionPlan& plan, const InjectorConfig& config);

// OTEL_RESOURCE_ATTRIBUTES for one container: the downward API's
// $(JVMSIGHT_*) references, the container's name and the workload the pod's
// controller reference names (k8s.deployment.name through the ReplicaSet's
// pod-template-hash suffix, k8s.statefulset.name, ...).
std::string resource_attributes(const nlohmann::json& pod, const std::string& container);

// "~" and "/" escaped for a JSON Pointer segment (RFC 6901).
std::string pointer_segment(const std::string& key);

}  // namespace jvmsight::injector
