#include "exporters/pprof/profile_query.h"

#include <charconv>

#include "exporters/http/http_server.h"

namespace jvmsight {
namespace {

bool has_key(const std::string& query, const std::string& key) {
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t amp = query.find('&', pos);
    if (amp == std::string::npos) amp = query.size();
    if (query.compare(pos, key.size(), key) == 0 && (pos + key.size() == amp || query[pos + key.size()] == '='))
      return true;
    pos = amp + 1;
  }
  return false;
}

// Digits only (no sign, no space), within [min, max].
bool parse_bounded(const std::string& text, int min, int max, int& out) {
  int value = 0;
  const char* end = text.data() + text.size();
  if (text.empty() || text.size() > 9 || text[0] == '-' || text[0] == '+') return false;
  auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || stop != end || value < min || value > max) return false;
  out = value;
  return true;
}

}  // namespace

ProfileQuery parse_profile_query(const std::string& query) {
  ProfileQuery q;
  if (has_key(query, "seconds") && !parse_bounded(query_param(query, "seconds"), 1, max_profile_seconds, q.seconds))
    q.error = "seconds must be a whole number from 1 to " + std::to_string(max_profile_seconds) + "\n";
  int debug = 0;
  if (q.ok() && has_key(query, "debug") && !parse_bounded(query_param(query, "debug"), 0, 1, debug))
    q.error = "debug must be 0 or 1\n";
  q.text = debug == 1;
  return q;
}

}  // namespace jvmsight
