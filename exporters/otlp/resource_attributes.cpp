#include "exporters/otlp/resource_attributes.h"

#include "exporters/otlp/otlp_config.h"

namespace jvmsight::otlp {

KeyValues parse_resource_attributes(const std::string& text, std::string& problem) {
  KeyValues out;
  std::string bad_item;
  problem.clear();
  if (parse_key_value_list(text, out, bad_item)) return out;
  problem = "OTEL_RESOURCE_ATTRIBUTES: entry '" + bad_item.substr(0, 64) +
            "' is not key=value with a percent-encoded value; the variable is ignored";
  return {};
}

}  // namespace jvmsight::otlp
