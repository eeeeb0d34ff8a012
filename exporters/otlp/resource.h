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

#include "exporters/otlp/resource_attributes.h"
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

// Fills `out` from the facts, the user's attributes and service name.
void build_resource(const ProcessFacts& facts, const KeyValues& user_attributes,
                    const std::optional<std::string>& service_name, opentelemetry::proto::resource::v1::Resource& out);

}  // namespace jvmsight::otlp
