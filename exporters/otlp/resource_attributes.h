#pragma once
// The user's side of the OTLP resource: OTEL_RESOURCE_ATTRIBUTES and the
// default service.name. No protobuf here, so the fuzzer (fuzz/) builds it
// without the generated OTLP code.
#include <string>
#include <utility>
#include <vector>

namespace jvmsight::otlp {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// "k1=v1,k2=v2" with percent-encoded values. On any malformed entry the whole
// value is discarded (as the spec asks) and `problem` says why.
KeyValues parse_resource_attributes(const std::string& text, std::string& problem);

// The default service.name: the main class or the jar's base name.
std::string default_service_name(const std::string& java_command);

}  // namespace jvmsight::otlp
