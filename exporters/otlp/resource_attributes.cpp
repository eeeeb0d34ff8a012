#include "exporters/otlp/resource_attributes.h"

#include <string_view>

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

std::string default_service_name(const std::string& java_command) {
  std::string main = java_command.substr(0, java_command.find(' '));
  if (main.empty()) return "unknown_service:java";
  size_t slash = main.find_last_of('/');
  if (slash != std::string::npos) main = main.substr(slash + 1);
  constexpr std::string_view jar = ".jar";
  if (main.size() > jar.size() && main.compare(main.size() - jar.size(), jar.size(), jar) == 0)
    main.resize(main.size() - jar.size());
  return main;
}

}  // namespace jvmsight::otlp
