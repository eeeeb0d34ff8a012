#include "collectors/threads/thread_pool_name.h"

namespace jvmsight {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_separator(char c) { return c == '-' || c == '_' || c == '.' || c == '#' || c == ' '; }

void append_code_point(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xc0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xe0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (c & 0x3f));
  }
}

}  // namespace

std::string_view pool_of(std::string_view name) {
  size_t end = name.size();
  while (end > 0 && is_digit(name[end - 1])) --end;
  if (end == name.size()) return name;  // no trailing number
  if (end > 0 && is_separator(name[end - 1])) --end;
  for (size_t i = 0; i < end; ++i)
    if (!is_digit(name[i]) && !is_separator(name[i])) return name.substr(0, end);
  return name;  // nothing but numbers and separators: no pool name left
}

std::string utf8_of_utf16(const uint16_t* units, size_t count) {
  std::string out;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    uint32_t c = units[i];
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < count && units[i + 1] >= 0xdc00 && units[i + 1] <= 0xdfff) {
      c = 0x10000 + ((c - 0xd800) << 10) + (units[i + 1] - 0xdc00);
      ++i;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      c = 0xfffd;  // a surrogate without its pair
    }
    append_code_point(out, c);
  }
  return out;
}

}  // namespace jvmsight
