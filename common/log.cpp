#include "common/log.h"

#include <unistd.h>

#include <atomic>

namespace jvmsight::log {
namespace {
std::atomic<Level> current{Level::info};

const char* prefix(Level l) {
  switch (l) {
    case Level::error:
      return "jvmsight: error: ";
    case Level::warn:
      return "jvmsight: warning: ";
    default:
      return "jvmsight: ";
  }
}
}  // namespace

void set_level(Level l) { current.store(l, std::memory_order_relaxed); }
Level level() { return current.load(std::memory_order_relaxed); }

bool parse_level(std::string_view text, Level& out) {
  static constexpr std::pair<std::string_view, Level> names[] = {{"off", Level::off},
                                                                 {"error", Level::error},
                                                                 {"warn", Level::warn},
                                                                 {"info", Level::info},
                                                                 {"debug", Level::debug}};
  for (const auto& [name, l] : names) {
    if (text == name) {
      out = l;
      return true;
    }
  }
  return false;
}

void write_line(Level l, const std::string& message) {
  std::string line = prefix(l);
  line += message;
  line += '\n';
  const char* p = line.data();
  size_t left = line.size();
  while (left > 0) {
    ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) return;  // stderr closed or broken: logging must never fail the agent
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace jvmsight::log
