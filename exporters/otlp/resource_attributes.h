#pragma once
// The user's side of the OTLP resource: OTEL_RESOURCE_ATTRIBUTES. No protobuf here, so the fuzzer (fuzz/) builds it
// without the generated OTLP code.
#include <string>
#include <utility>
#include <vector>

namespace jvmsight::otlp {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// "k1=v1,k2=v2" with percent-encoded values. On any malformed entry the whole
// value is discarded (as the spec asks) and `problem` says why.
KeyValues parse_resource_attributes(const std::string& text, std::string& problem);

}  // namespace jvmsight::otlp
