// The OTLP environment: OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES
// are set by whoever writes the pod spec; any bytes must parse or be refused,
// and what parses is consistent: accepted headers round-trip through
// percent-decoding of their raw values.
#include <cstdlib>
#include <string>

#include "exporters/otlp/otlp_config.h"
#include "exporters/otlp/resource_attributes.h"

using namespace jvmsight::otlp;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  std::string decoded;
  if (percent_decode(text, decoded) && decoded.size() > text.size()) std::abort();  // decoding never grows

  std::vector<std::pair<std::string, std::string>> headers;
  if (parse_headers(text, headers)) {
    for (const auto& [k, v] : headers)
      if (k.size() > text.size() || v.size() > text.size()) std::abort();
  }

  std::vector<std::pair<std::string, std::string>> kv;
  std::string bad_item;
  bool ok = parse_key_value_list(text, kv, bad_item);
  std::string problem;
  KeyValues attributes = parse_resource_attributes(text, problem);
  // Both readers of the same grammar agree, and a refusal says why.
  if (ok != problem.empty()) std::abort();
  if (!ok && !attributes.empty()) std::abort();
  if (ok && attributes != kv) std::abort();
  return 0;
}
