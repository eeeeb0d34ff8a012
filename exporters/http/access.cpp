#include "exporters/http/access.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string_view>

namespace jvmsight {
namespace {

int64_t steady_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// A credentials file: must exist, be a regular file and hold something.
std::string read_lines(const std::string& path, const char* what, std::vector<std::string>& lines,
                       std::string& warning) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::string("cannot read ") + what + " '" + path + "': " + strerror(errno);
  if (!S_ISREG(st.st_mode)) return std::string(what) + " '" + path + "' is not a regular file";
  if (st.st_size > 64 * 1024) return std::string(what) + " '" + path + "' is over 64 KiB";
  std::ifstream in(path);
  if (!in) return std::string("cannot read ") + what + " '" + path + "': " + strerror(errno);
  if (st.st_mode & (S_IRWXG | S_IRWXO))
    warning = std::string(what) + " '" + path + "' is readable by other users; chmod 600 it";
  for (std::string line; std::getline(in, line);) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    lines.push_back(line);
  }
  if (lines.empty()) return std::string(what) + " '" + path + "' holds no credentials";
  return "";
}

}  // namespace

bool is_loopback_address(const std::string& a) {
  return a == "::1" || a.rfind("127.", 0) == 0 || a.rfind("::ffff:127.", 0) == 0;
}

DumpRateLimit::DumpRateLimit(std::chrono::nanoseconds interval, Clock clock)
    : interval_ns_(interval.count()), clock_(clock ? std::move(clock) : Clock(steady_ns)) {}

bool DumpRateLimit::try_acquire() {
  int64_t now = clock_();
  int64_t next = next_allowed_ns_.load();
  while (now >= next) {
    if (next_allowed_ns_.compare_exchange_weak(next, now + interval_ns_)) return true;
  }
  return false;
}

namespace {

// Every byte of the longer one is compared: no early exit on the first
// difference. fold: ASCII case does not count.
bool same_bytes(std::string_view a, std::string_view b, bool fold) {
  unsigned diff = static_cast<unsigned>(a.size() != b.size());
  const size_t len = std::max(a.size(), b.size());
  for (size_t i = 0; i < len; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    if (fold) {
      x = static_cast<unsigned char>(std::tolower(x));
      y = static_cast<unsigned char>(std::tolower(y));
    }
    diff |= x ^ y;
  }
  return diff == 0;
}

}  // namespace

bool Credentials::accepts(const char* header) const {
  if (header == nullptr) return false;
  // "<scheme> <credentials>": the scheme in any case (RFC 9110 11.1), one
  // or more spaces, then the credentials byte for byte.
  std::string_view given(header);
  const size_t space = given.find(' ');
  std::string_view scheme = given.substr(0, space);
  std::string_view value = space == std::string_view::npos ? std::string_view() : given.substr(space);
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  bool match = false;
  for (const auto& expected : authorizations) {
    const size_t split = expected.find(' ');
    // Both compared whatever the first says: no early exit.
    const bool same_scheme = same_bytes(scheme, std::string_view(expected).substr(0, split), true);
    const bool same_value = same_bytes(value, std::string_view(expected).substr(split + 1), false);
    match |= same_scheme && same_value;
  }
  return match;
}

std::string base64(const std::string& bytes) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                 static_cast<unsigned char>(bytes[i + 2]);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += alphabet[v & 63];
  }
  if (i + 1 == bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += "==";
  } else if (i + 2 == bytes.size()) {
    unsigned v = (static_cast<unsigned char>(bytes[i]) << 16) | (static_cast<unsigned char>(bytes[i + 1]) << 8);
    out += alphabet[(v >> 18) & 63];
    out += alphabet[(v >> 12) & 63];
    out += alphabet[(v >> 6) & 63];
    out += '=';
  }
  return out;
}

std::string read_credentials(const std::string& basic_auth_file, const std::string& bearer_token_file, Credentials& out,
                             std::string& warning) {
  out = {};
  if (!basic_auth_file.empty()) {
    std::vector<std::string> lines;
    std::string error = read_lines(basic_auth_file, "basic_auth_file", lines, warning);
    if (!error.empty()) return error;
    for (size_t i = 0; i < lines.size(); ++i) {
      size_t colon = lines[i].find(':');
      if (colon == 0 || colon == std::string::npos || colon + 1 == lines[i].size())
        return "basic_auth_file '" + basic_auth_file + "': entry " + std::to_string(i + 1) +
               " is not user:password";  // never echo the line: it may be a password
      out.authorizations.push_back("Basic " + base64(lines[i]));
    }
    out.basic = true;
  }
  if (!bearer_token_file.empty()) {
    std::vector<std::string> lines;
    std::string error = read_lines(bearer_token_file, "bearer_token_file", lines, warning);
    if (!error.empty()) return error;
    if (lines.size() != 1) return "bearer_token_file '" + bearer_token_file + "' must hold exactly one token line";
    for (char c : lines[0])
      if (c == ' ' || c == '\t' || static_cast<unsigned char>(c) < 0x21 || c == 0x7f)
        return "bearer_token_file '" + bearer_token_file + "': the token holds blanks or control characters";
    out.authorizations.push_back("Bearer " + lines[0]);
    out.bearer = true;
  }
  return "";
}

}  // namespace jvmsight
