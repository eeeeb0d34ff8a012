#include "injector/pod_patch.h"

#include <utility>

namespace jvmsight::injector {
namespace {

using nlohmann::json;

const json& member(const json& object, const char* key) {
  static const json none;
  if (!object.is_object()) return none;
  auto it = object.find(key);
  return it == object.end() ? none : *it;
}

std::string text_at(const json& object, const char* key) {
  const json& v = member(object, key);
  return v.is_string() ? v.get<std::string>() : "";
}

// The kubelet expands $(VAR) in env values; what we write is literal.
std::string kubelet_literal(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '$' ? std::string("$$") : std::string(1, c);
  return out;
}

json field_ref(const char* name, const char* path) {
  return {{"name", name}, {"valueFrom", {{"fieldRef", {{"fieldPath", path}}}}}};
}

json op(const std::string& path, json value) { return {{"op", "add"}, {"path", path}, {"value", std::move(value)}}; }

// An add to an object member, creating the object when the pod has none.
void add_member(json& ops, const json& parent, const std::string& parent_path, const std::string& key, json value) {
  if (parent.is_object())
    ops.push_back(op(parent_path + "/" + pointer_segment(key), std::move(value)));
  else
    ops.push_back(op(parent_path, {{key, std::move(value)}}));
}

// An append to an array, creating it when absent.
void append(json& ops, const json& list, const std::string& path, json value) {
  if (list.is_array())
    ops.push_back(op(path + "/-", std::move(value)));
  else
    ops.push_back(op(path, json::array({std::move(value)})));
}

// The image's copy step, named here rather than left to the image's default
// command: an image without it (older, or a node's stale copy of the tag)
// then fails with a line saying so, instead of copying a bundle the
// JAVA_TOOL_OPTIONS below may not find (docs/KUBERNETES.md). The chart's and
// the kustomize component's init containers run the same command.
json copy_command() {
  return json::array({"/bin/busybox", "sh", "-c",
                      "[ -f /bin/jvmsight-copy ] && exec /bin/busybox sh /bin/jvmsight-copy; echo 'jvmsight: the init "
                      "container image is not a jvmsight-agent image of this release (no /bin/jvmsight-copy): use the "
                      "agent image of the injector or chart that added it, and re-pull it where a node has an older "
                      "copy of the tag' >&2; exit 1"});
}

json init_container(const InjectorConfig& c) {
  return {{"name", agent_volume},
          {"image", c.image},
          {"imagePullPolicy", c.image_pull_policy},
          {"command", copy_command()},
          // Its last line (why a copy failed) becomes the termination message.
          {"terminationMessagePolicy", "FallbackToLogsOnError"},
          {"volumeMounts", json::array({{{"name", agent_volume}, {"mountPath", "/jvmsight"}}})},
          {"resources",
           {{"requests", {{"cpu", c.init_cpu_request}, {"memory", c.init_memory_request}}},
            {"limits", {{"memory", c.init_memory_limit}}}}},
          {"securityContext",
           {{"runAsNonRoot", true},
            {"runAsUser", 65532},
            {"allowPrivilegeEscalation", false},
            {"readOnlyRootFilesystem", true},
            {"capabilities", {{"drop", json::array({"ALL"})}}},
            {"seccompProfile", {{"type", "RuntimeDefault"}}}}}};
}

// The env entry named name, or null.
const json* env_entry(const json& env, const char* name) {
  if (!env.is_array()) return nullptr;
  for (const json& e : env)
    if (text_at(e, "name") == name) return &e;
  return nullptr;
}

// Mounting the agent volume where the container mounts another would make
// the API server reject the pod (mount paths are unique in a container).
bool mount_path_taken(const json& container, const std::string& path) {
  for (const json& m :
       member(container, "volumeMounts").is_array() ? member(container, "volumeMounts") : json::array()) {
    std::string taken = text_at(m, "mountPath");
    while (taken.size() > 1 && taken.back() == '/') taken.pop_back();
    if (taken == path) return true;
  }
  return false;
}

// The container's env with the agent: downward-API variables first (so the
// kubelet can expand them in any later variable), the container's own
// entries, then JAVA_TOOL_OPTIONS and OTEL_RESOURCE_ATTRIBUTES appended to
// or created. Null with a warning when the container cannot take it.
json injected_env(const json& container, const std::string& agent, const std::string& attributes,
                  std::vector<std::string>& warnings) {
  const std::string name = text_at(container, "name").substr(0, 63);
  const json& env = member(container, "env");
  const json* jto = env_entry(env, "JAVA_TOOL_OPTIONS");
  if (jto != nullptr && !member(*jto, "value").is_string() && member(*jto, "valueFrom").is_object()) {
    warnings.push_back("jvmsight: container '" + name +
                       "' not injected: its JAVA_TOOL_OPTIONS comes from valueFrom; set it as a value");
    return nullptr;
  }
  if (jto != nullptr && text_at(*jto, "value").find("libjvmsight-loader.so") != std::string::npos) {
    warnings.push_back("jvmsight: container '" + name + "' loads the agent already; left as it is");
    return nullptr;
  }
  if (jto == nullptr && member(container, "envFrom").is_array())
    warnings.push_back("jvmsight: container '" + name +
                       "': a JAVA_TOOL_OPTIONS from envFrom is replaced by the agent's; set it in env");
  json out = json::array();
  if (!attributes.empty())
    for (auto [var, path] : {std::pair{"JVMSIGHT_POD_NAME", "metadata.name"},
                             {"JVMSIGHT_POD_UID", "metadata.uid"},
                             {"JVMSIGHT_POD_NAMESPACE", "metadata.namespace"},
                             {"JVMSIGHT_NODE_NAME", "spec.nodeName"}})
      out.push_back(field_ref(var, path));
  bool attributes_done = attributes.empty();
  for (json e : env.is_array() ? env : json::array()) {
    const std::string var = text_at(e, "name");
    if (var == "JAVA_TOOL_OPTIONS") e["value"] = text_at(e, "value") + (text_at(e, "value").empty() ? "" : " ") + agent;
    if (var == "OTEL_RESOURCE_ATTRIBUTES" && !attributes_done) {
      attributes_done = true;
      if (member(e, "valueFrom").is_object())
        warnings.push_back("jvmsight: container '" + name +
                           "': OTEL_RESOURCE_ATTRIBUTES comes from valueFrom; the pod's attributes are not added");
      else
        e["value"] = text_at(e, "value") + (text_at(e, "value").empty() ? "" : ",") + attributes;
    }
    out.push_back(std::move(e));
  }
  if (jto == nullptr) out.push_back({{"name", "JAVA_TOOL_OPTIONS"}, {"value", agent}});
  if (!attributes_done) out.push_back({{"name", "OTEL_RESOURCE_ATTRIBUTES"}, {"value", attributes}});
  return out;
}

// The controller's kind and name: the owner reference with controller=true.
std::pair<std::string, std::string> controller_of(const json& metadata) {
  const json& owners = member(metadata, "ownerReferences");
  for (const json& o : owners.is_array() ? owners : json::array())
    if (member(o, "controller") == true) return {text_at(o, "kind"), text_at(o, "name")};
  return {};
}

// A port name or number some container of the pod declares already: adding
// it again would make the API server refuse the pod (names are unique in a
// pod), so the agent listens without the declaration.
bool port_taken(const json& spec, const std::string& name, int number) {
  for (const json& c : member(spec, "containers").is_array() ? member(spec, "containers") : json::array())
    for (const json& p : member(c, "ports").is_array() ? member(c, "ports") : json::array())
      if (text_at(p, "name") == name || member(p, "containerPort") == number) return true;
  return false;
}

}  // namespace

std::string pointer_segment(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

std::string resource_attributes(const json& pod, const std::string& container) {
  std::string out =
      "k8s.pod.name=$(JVMSIGHT_POD_NAME),k8s.pod.uid=$(JVMSIGHT_POD_UID),k8s.namespace.name=$(JVMSIGHT_POD_NAMESPACE),"
      "k8s.node.name=$(JVMSIGHT_NODE_NAME),k8s.container.name=" +
      kubelet_literal(container);
  const json& metadata = member(pod, "metadata");
  auto [kind, name] = controller_of(metadata);
  name = kubelet_literal(name);
  if (name.empty() || name.find_first_of(",=") != std::string::npos) return out;  // never a broken list
  if (kind == "ReplicaSet") {
    out += ",k8s.replicaset.name=" + name;
    const std::string hash = text_at(member(metadata, "labels"), "pod-template-hash");
    const std::string suffix = "-" + hash;
    if (!hash.empty() && name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      out += ",k8s.deployment.name=" + name.substr(0, name.size() - suffix.size());
  } else if (kind == "StatefulSet" || kind == "DaemonSet" || kind == "Job") {
    std::string key = kind == "StatefulSet" ? "statefulset" : kind == "DaemonSet" ? "daemonset" : "job";
    out += ",k8s." + key + ".name=" + name;
  }
  return out;
}

PodPatch build_pod_patch(const json& pod, const InjectionPlan& plan, const InjectorConfig& config) {
  PodPatch out;
  const json& metadata = member(pod, "metadata");
  const json& spec = member(pod, "spec");
  const std::string loader = "-agentpath:" + config.mount_path + "/libjvmsight-loader.so=";
  json container_ops = json::array();
  int first_port = 0;
  int injected = 0;
  for (size_t index : plan.containers) {
    const json& container = member(spec, "containers")[index];
    // Containers share the pod's network: each agent gets a port of its own.
    int port = plan.port == 0 ? 0 : plan.port + injected;
    std::string options = plan.agent_options;
    if (injected > 0 && port != 0)
      merge_agent_options(plan.agent_options, "port=" + std::to_string(port), options, port);
    if (mount_path_taken(container, config.mount_path)) {
      out.warnings.push_back("jvmsight: container '" + text_at(container, "name").substr(0, 63) +
                             "' not injected: it mounts a volume at " + config.mount_path +
                             " already; set the injector's --mount-path elsewhere");
      continue;
    }
    const std::string attrs = config.resource_attributes ? resource_attributes(pod, text_at(container, "name")) : "";
    json env = injected_env(container, kubelet_literal(loader + options), attrs, out.warnings);
    if (env.is_null()) continue;
    const std::string path = "/spec/containers/" + std::to_string(index);
    container_ops.push_back(op(path + "/env", std::move(env)));
    append(container_ops, member(container, "volumeMounts"), path + "/volumeMounts",
           {{"name", agent_volume}, {"mountPath", config.mount_path}, {"readOnly", true}});
    const std::string port_name = injected == 0 ? std::string("jvmsight") : "jvmsight-" + std::to_string(injected + 1);
    if (port != 0 && !port_taken(spec, port_name, port)) {
      append(container_ops, member(container, "ports"), path + "/ports",
             {{"name", port_name}, {"containerPort", port}, {"protocol", "TCP"}});
      if (first_port == 0) first_port = port;
    }
    ++injected;
  }
  if (container_ops.empty()) {
    out.skip_reason = "no_container";
    return out;
  }
  add_member(out.operations, member(metadata, "labels"), "/metadata/labels", "jvmsight/injected", "true");
  const json& annotations = member(metadata, "annotations");
  if (config.scrape_annotations && first_port != 0 && !member(annotations, "prometheus.io/scrape").is_string()) {
    json scrape = {{"prometheus.io/scrape", "true"},
                   {"prometheus.io/port", std::to_string(first_port)},
                   {"prometheus.io/path", "/metrics"}};
    if (annotations.is_object())
      for (auto& [key, value] : scrape.items())
        add_member(out.operations, annotations, "/metadata/annotations", key, value);
    else
      out.operations.push_back(op("/metadata/annotations", std::move(scrape)));
  }
  append(out.operations, member(spec, "initContainers"), "/spec/initContainers", init_container(config));
  append(out.operations, member(spec, "volumes"), "/spec/volumes",
         {{"name", agent_volume}, {"emptyDir", {{"sizeLimit", config.volume_size_limit}}}});
  for (json& o : container_ops) out.operations.push_back(std::move(o));
  return out;
}

}  // namespace jvmsight::injector
