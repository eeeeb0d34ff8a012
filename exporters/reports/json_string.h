#pragma once
// JSON string literals from untrusted text (thread names, class names).
#include <string>
#include <string_view>

namespace jvmsight {

// Appends s as a quoted JSON string. Control characters, quotes and
// backslashes are escaped; bytes that are not valid UTF-8 (including the
// surrogates of the JVM's modified UTF-8) become U+FFFD, so the output is
// always valid JSON.
void append_json_string(std::string& out, std::string_view s);
std::string json_string(std::string_view s);

}  // namespace jvmsight
