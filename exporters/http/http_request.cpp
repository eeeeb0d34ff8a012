#include "exporters/http/http_request.h"

#include <cstring>
#include <string>

namespace jvmsight {
namespace {

// RFC 9110 token characters: method and field names.
bool is_tchar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c != '\0' && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

bool is_token(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_tchar(c)) return false;
  return true;
}

// Control bytes other than a tab have no place in a request line or field value.
bool has_control(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\t') || u == 0x7f) return true;
  }
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX decoding of a path; false on a broken escape or a decoded NUL.
bool percent_decode(std::string_view in, std::string& out) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out += in[i];
      continue;
    }
    if (i + 2 >= in.size()) return false;
    int hi = hex_digit(in[i + 1]), lo = hex_digit(in[i + 2]);
    if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) return false;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

size_t skip_blank_lines(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == '\r' || s[i] == '\n')) ++i;
  return i;
}

// The next line of head from pos, without its LF or CRLF; false at the end.
// A CR anywhere else makes the line malformed (bad = true).
bool next_line(std::string_view head, size_t& pos, std::string_view& line, bool& bad) {
  if (pos >= head.size()) return false;
  size_t lf = head.find('\n', pos);
  if (lf == std::string_view::npos) lf = head.size();
  line = head.substr(pos, lf - pos);
  pos = lf + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.find('\r') != std::string_view::npos) bad = true;
  return true;
}

// The request target in origin form ("/path?query"), also from absolute form
// ("http://host:port/path?query", RFC 9112 3.2.2: a server must accept it;
// the authority counts for as little as Host does). "" when it is neither.
std::string origin_form(std::string_view target) {
  if (!target.empty() && target.front() == '/') return std::string(target);
  const size_t colon = target.find("://");
  if (colon == std::string_view::npos) return "";
  std::string_view scheme = target.substr(0, colon);
  if (!iequals(scheme, "http") && !iequals(scheme, "https")) return "";
  std::string_view rest = target.substr(colon + 3);
  const size_t end = rest.find_first_of("/?#");
  if (end == 0 || (end != std::string_view::npos && rest[end] == '#')) return "";
  if (end == std::string_view::npos) return "/";
  return rest[end] == '/' ? std::string(rest.substr(end)) : "/" + std::string(rest.substr(end));
}

// Digits only, below 2^40; a repeated field must repeat the value (RFC 9112
// 6.3: anything else is a framing error, never a guess).
bool parse_content_length(std::string_view value, long long& out) {
  if (value.empty() || value.size() > 12) return false;
  long long n = 0;
  for (char c : value) {
    if (!is_digit(c)) return false;
    n = n * 10 + (c - '0');
  }
  if (out >= 0 && out != n) return false;
  out = n;
  return true;
}

}  // namespace

size_t request_head_end(std::string_view received) {
  for (size_t i = skip_blank_lines(received); i < received.size(); ++i) {
    if (received[i] != '\n') continue;
    size_t next = i + 1;
    if (next < received.size() && received[next] == '\r') ++next;
    if (next < received.size() && received[next] == '\n') return next + 1;
  }
  return std::string_view::npos;
}

int parse_request_head(std::string_view head, RequestHead& out) {
  size_t pos = skip_blank_lines(head);
  std::string_view line;
  bool bad = false;
  if (!next_line(head, pos, line, bad) || bad || has_control(line)) return 400;
  // method SP request-target SP HTTP-version, single spaces.
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos) return 400;
  std::string_view method = line.substr(0, sp1), version = line.substr(sp2 + 1);
  const std::string target = origin_form(line.substr(sp1 + 1, sp2 - sp1 - 1));
  if (!is_token(method) || target.empty()) return 400;
  if (version != "HTTP/1.1" && version != "HTTP/1.0") {
    bool well_formed = version.size() == 8 && version.substr(0, 5) == "HTTP/" && is_digit(version[5]) &&
                       version[6] == '.' && is_digit(version[7]);
    return well_formed ? 505 : 400;
  }
  size_t question = target.find('?');
  std::string_view raw_path = std::string_view(target).substr(0, question);
  out.method = std::string(method);
  if (!percent_decode(raw_path, out.path)) return 400;
  out.query = question == std::string::npos ? "" : target.substr(question + 1);
  while (next_line(head, pos, line, bad)) {
    if (bad) return 400;
    if (line.empty()) break;                                      // the blank line ending the head
    if (line.front() == ' ' || line.front() == '\t') return 400;  // obsolete line folding
    size_t colon = line.find(':');
    if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) return 400;
    std::string_view value = trim(line.substr(colon + 1));
    if (has_control(value)) return 400;
    if (iequals(line.substr(0, colon), "Authorization")) {
      if (out.has_authorization) return 400;  // two answers to one question: refuse, never pick
      out.authorization = std::string(value);
      out.has_authorization = true;
    } else if (iequals(line.substr(0, colon), "Content-Length")) {
      if (!parse_content_length(value, out.content_length)) return 400;
    } else if (iequals(line.substr(0, colon), "Transfer-Encoding")) {
      out.has_transfer_encoding = true;
    }
  }
  return 0;
}

}  // namespace jvmsight
