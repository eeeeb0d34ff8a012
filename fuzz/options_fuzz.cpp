// The agent's option string, as a user (or a hostile JAVA_TOOL_OPTIONS) types
// it: any bytes. parse_options must return, and its error message stays
// bounded (echoed input is cut at 64 characters).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "options/options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  jvmsight::ParsedOptions parsed = jvmsight::parse_options(text);
  // The message names the accepted keys and at most 64 characters of input
  // per echoed item: never proportional to a huge option string.
  if (parsed.error.size() > 4096) std::abort();
  return 0;
}
