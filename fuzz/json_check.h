#pragma once
// A strict JSON check for the fuzzers: the whole text is one JSON value
// (RFC 8259) followed by an optional newline, and every string is valid UTF-8
// without raw control characters. Small on purpose; no dependency.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace jvmsight::fuzz {

class JsonCheck {
 public:
  static bool valid(std::string_view text) {
    JsonCheck c{text};
    c.blanks();
    if (!c.value(0)) return false;
    c.blanks();
    return c.pos_ == text.size();
  }

 private:
  explicit JsonCheck(std::string_view t) : t_(t) {}
  bool at(char ch) const { return pos_ < t_.size() && t_[pos_] == ch; }
  void blanks() {
    while (pos_ < t_.size() && (t_[pos_] == ' ' || t_[pos_] == '\n' || t_[pos_] == '\t' || t_[pos_] == '\r')) ++pos_;
  }
  bool literal(std::string_view word) {
    if (t_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  bool value(int depth) {
    if (depth > 64 || pos_ >= t_.size()) return false;
    char ch = t_[pos_];
    if (ch == '{') return container(depth, '}', true);
    if (ch == '[') return container(depth, ']', false);
    if (ch == '"') return string();
    if (ch == 't') return literal("true");
    if (ch == 'f') return literal("false");
    if (ch == 'n') return literal("null");
    return number();
  }
  bool container(int depth, char close, bool object) {
    ++pos_;
    blanks();
    if (at(close)) return ++pos_, true;
    for (;;) {
      blanks();
      if (object) {
        if (!string()) return false;
        blanks();
        if (!at(':')) return false;
        ++pos_;
        blanks();
      }
      if (!value(depth + 1)) return false;
      blanks();
      if (at(close)) return ++pos_, true;
      if (!at(',')) return false;
      ++pos_;
    }
  }
  bool number() {
    size_t start = pos_;
    if (at('-')) ++pos_;
    while (pos_ < t_.size() && ((t_[pos_] >= '0' && t_[pos_] <= '9') || t_[pos_] == '.' || t_[pos_] == 'e' ||
                                t_[pos_] == 'E' || t_[pos_] == '+' || t_[pos_] == '-'))
      ++pos_;
    return pos_ > start && t_[pos_ - 1] >= '0' && t_[pos_ - 1] <= '9';
  }
  bool string() {
    if (!at('"')) return false;
    ++pos_;
    while (pos_ < t_.size()) {
      unsigned char ch = static_cast<unsigned char>(t_[pos_]);
      if (ch == '"') return ++pos_, true;
      if (ch < 0x20) return false;
      if (ch == '\\') {
        if (++pos_ >= t_.size()) return false;
        char e = t_[pos_++];
        if (e == 'u') {
          for (int i = 0; i < 4; ++i, ++pos_)
            if (pos_ >= t_.size() || !std::isxdigit(static_cast<unsigned char>(t_[pos_]))) return false;
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return false;
        }
        continue;
      }
      if (!utf8()) return false;
    }
    return false;
  }
  // One UTF-8 sequence, shortest form, no surrogates, at most U+10FFFF.
  bool utf8() {
    unsigned char b0 = static_cast<unsigned char>(t_[pos_]);
    size_t n = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || pos_ + n > t_.size()) return false;
    uint32_t cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (size_t i = 1; i < n; ++i) {
      unsigned char b = static_cast<unsigned char>(t_[pos_ + i]);
      if ((b >> 6) != 0x2) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    static const uint32_t min_for[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    pos_ += n;
    return true;
  }

  std::string_view t_;
  size_t pos_ = 0;
};

}  // namespace jvmsight::fuzz
