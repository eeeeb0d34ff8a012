#include "agent/other_agents.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

namespace jvmsight {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool is_separator(char c) { return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

std::string other_native_agent(std::string_view options) {
  for (size_t at = 0; at < options.size();) {
    while (at < options.size() && is_separator(options[at])) ++at;
    size_t end = at;
    while (end < options.size() && !is_separator(options[end])) ++end;
    const std::string_view token = options.substr(at, end - at);
    at = end;
    const bool agent =
        starts_with(token, "-agentlib:") || starts_with(token, "-agentpath:") || starts_with(token, "-Xrun");
    if (agent && token.find("jvmsight") == std::string_view::npos) return std::string(token);
  }
  return "";
}

std::string jvm_options_text() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* name : {"JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS"})
    if (const char* value = std::getenv(name)) text.append(1, '\0').append(value);
  return text;
}

}  // namespace jvmsight
