#pragma once
// What jvmsight-injector serves and what it injects, from its command line
// (docs/KUBERNETES.md, "Injector flags"). The injected pod has the shape the
// kustomize component and the Helm chart's templates give it.
#include <string>
#include <vector>

namespace jvmsight::injector {

struct InjectorConfig {
  // The server.
  std::string host = "0.0.0.0";
  int port = 8443;
  std::string tls_cert_file;
  std::string tls_key_file;
  // The init container: the agent image and its limits.
  std::string image = "jvmsight-agent:0.1.0";
  std::string image_pull_policy = "IfNotPresent";
  std::string init_cpu_request = "10m";
  std::string init_memory_request = "16Mi";
  std::string init_memory_limit = "32Mi";
  // The agent: its options before a pod's jvmsight.io/options, and where the
  // Java container sees it.
  std::string agent_options = "port=9404,details=off";
  std::string mount_path = "/jvmsight";
  std::string volume_size_limit = "64Mi";
  // OTEL_RESOURCE_ATTRIBUTES from the downward API and the pod's owner.
  bool resource_attributes = true;
  // prometheus.io/scrape|port|path pod annotations.
  bool scrape_annotations = true;
  std::string log_level = "info";
};

// Parses --name=value flags; returns "" or one sentence naming the bad flag.
// --help sets help and returns "".
std::string parse_flags(const std::vector<std::string>& args, InjectorConfig& out, bool& help);

// The flags, one a line, for --help and error messages.
std::string flags_usage();

}  // namespace jvmsight::injector
