#pragma once
// The OTLP resource: who sends. service.name from OTEL_SERVICE_NAME, else
// OTEL_RESOURCE_ATTRIBUTES, else the main class or jar; the user's
// OTEL_RESOURCE_ATTRIBUTES (percent-decoded, per the spec) over what the
// agent detects (process.pid, host.name, process.runtime.*, telemetry.sdk.*).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "resource.pb.h"

namespace jvmsight::otlp {

// What the agent and the process know about themselves.
struct ProcessFacts {
  int64_t pid = 0;
  std::string host_name;
  std::string java_command;  // sun.java.command: "com.example.Main args" or "app.jar args"
  std::string vm_name;       // java.vm.name
  std::string vm_version;    // java.vm.version
  std::string agent_version;
};

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// "k1=v1,k2=v2" with percent-encoded values. On any malformed entry the whole
// value is discarded (as the spec asks) and `problem` says why.
KeyValues parse_resource_attributes(const std::string& text, std::string& problem);

// The default service.name: the main class or the jar's base name.
std::string default_service_name(const std::string& java_command);

// Fills `out` from the facts, the user's attributes and service name.
void build_resource(const ProcessFacts& facts, const KeyValues& user_attributes,
                    const std::optional<std::string>& service_name, opentelemetry::proto::resource::v1::Resource& out);

}  // namespace jvmsight::otlp
