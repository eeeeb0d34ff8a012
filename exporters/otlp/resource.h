#pragma once
// The OTLP resource, built as the OpenTelemetry Java SDK and agent build
// it: service.name from OTEL_SERVICE_NAME, else OTEL_RESOURCE_ATTRIBUTES,
// else the SDK's "unknown_service:java"; a service.instance.id UUID per JVM
// start; process.* from the JVM's system properties; host.*, os.*,
// container.id; telemetry.sdk.* naming jvmsight. The user's
// OTEL_RESOURCE_ATTRIBUTES (percent-decoded, per the spec) win over
// everything detected.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "exporters/otlp/resource_attributes.h"
#include "resource.pb.h"

namespace jvmsight::otlp {

// What the agent and the process know about themselves.
struct ProcessFacts {
  int64_t pid = 0;
  std::string host_name;
  // System.getProperty values (java.runtime.name, java.vm.vendor,
  // java.home, os.arch, ...), as the agent hands them over.
  std::map<std::string, std::string> java;
  std::string container_id;  // "" when the cgroup shows none
  std::string instance_id;   // a random UUID, one per JVM start
  std::string agent_version;
};

// "name=value\n" lines (the agent's hand-over) to a map; values keep any '='.
std::map<std::string, std::string> parse_java_properties(const std::string& text);

// The container id (64 hex digits) a cgroup v1 /proc/self/cgroup names, else
// the one in a cgroup v2 container's /proc/self/mountinfo; "" when neither.
std::string container_id_from(const std::string& cgroup, const std::string& mountinfo);

// os.arch as host.arch spells it (amd64, arm64, x86, ppc64, s390x, ...).
std::string host_arch_of(const std::string& os_arch);

// A random (version 4) UUID, lowercase with dashes.
std::string random_uuid();

// Fills `out` from the facts, the user's attributes and service name.
void build_resource(const ProcessFacts& facts, const KeyValues& user_attributes,
                    const std::optional<std::string>& service_name, opentelemetry::proto::resource::v1::Resource& out);

}  // namespace jvmsight::otlp
