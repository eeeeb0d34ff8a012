#pragma once
// Agent logging: one line per message, straight to stderr with a single
// write(2), so lines from several threads never interleave. Messages are built
// from values with operator<<; nothing user-supplied ever becomes a format
// string. Never call from a JVMTI event callback (it allocates).
#include <sstream>
#include <string>
#include <string_view>

namespace jvmsight::log {

enum class Level { off = 0, error = 1, warn = 2, info = 3, debug = 4 };

void set_level(Level level);
Level level();
inline bool enabled(Level l) { return l != Level::off && static_cast<int>(l) <= static_cast<int>(level()); }

// Parses "off|error|warn|info|debug"; false on anything else.
bool parse_level(std::string_view text, Level& out);

void write_line(Level l, const std::string& message);

template <class... Parts>
void at(Level l, const Parts&... parts) {
  if (!enabled(l)) return;
  std::ostringstream out;
  (out << ... << parts);
  write_line(l, out.str());
}

template <class... P>
void error(const P&... p) {
  at(Level::error, p...);
}
template <class... P>
void warn(const P&... p) {
  at(Level::warn, p...);
}
template <class... P>
void info(const P&... p) {
  at(Level::info, p...);
}
template <class... P>
void debug(const P&... p) {
  at(Level::debug, p...);
}

}  // namespace jvmsight::log
