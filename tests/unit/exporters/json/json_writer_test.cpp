// The one JSON writer: structure, and the escaper against every byte value.
// The property tests decode the output with a strict RFC 8259 string
// decoder written here, so they fail on any invalid output, not only on the
// cases someone thought of.
#include "exporters/json/json_writer.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

namespace jvmsight {
namespace {

std::string as_json(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Strict decoder of one JSON string literal (the whole input); nullopt if it
// is not valid JSON or not valid UTF-8.
std::optional<std::string> decode(std::string_view s) {
  if (s.size() < 2 || s.front() != '"' || s.back() != '"') return std::nullopt;
  std::string out;
  for (size_t i = 1; i + 1 < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"') return std::nullopt;
    if (c == '\\') {
      if (i + 2 >= s.size()) return std::nullopt;
      char e = s[i + 1];
      i += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          if (i + 4 >= s.size()) return std::nullopt;
          uint32_t cp = std::stoul(std::string(s.substr(i, 4)), nullptr, 16);
          if (cp >= 0xD800 && cp <= 0xDFFF) return std::nullopt;  // the writer never needs surrogate pairs
          append_utf8(out, cp);
          i += 4;
          break;
        }
        default:
          return std::nullopt;
      }
      continue;
    }
    // Raw bytes must form valid UTF-8: check by re-encoding the code point.
    size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (len == 0 || i + len >= s.size()) return std::nullopt;
    uint32_t cp = len == 1 ? c : c & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) {
      unsigned char b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (b & 0x3F);
    }
    std::string again;
    append_utf8(again, cp);
    if (again != s.substr(i, len) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    out += again;
    i += len;
  }
  return out;
}

TEST(JsonWriter, WritesNestedDocumentsWithCommasInPlace) {
  JsonWriter w;
  w.begin_object().key("a").value(1).key("b").begin_array().value("x").null().value(true).begin_object().end_object();
  w.end_array().key("c").begin_array().end_array().key("d").value(uint64_t{18446744073709551615u}).end_object();
  EXPECT_EQ(std::move(w).finish(), "{\"a\":1,\"b\":[\"x\",null,true,{}],\"c\":[],\"d\":18446744073709551615}\n");
}

TEST(JsonWriter, KeysAreEscapedLikeValues) {
  JsonWriter w;
  w.begin_object().key("k\"\n").value("v\\").end_object();
  EXPECT_EQ(std::move(w).finish(), "{\"k\\\"\\n\":\"v\\\\\"}\n");
}

TEST(JsonString, EscapesQuotesBackslashesAndEveryControlCharacter) {
  EXPECT_EQ(as_json("a\"b\\c\n\t\r\x01\x1f\x7f"), "\"a\\\"b\\\\c\\n\\t\\r\\u0001\\u001f\\u007f\"");
  for (int c = 0; c < 0x20; ++c) {
    std::string in(1, static_cast<char>(c));
    auto back = decode(as_json(in));
    ASSERT_TRUE(back) << c;
    EXPECT_EQ(*back, in) << c;
  }
}

TEST(JsonString, KeepsValidUtf8AndReplacesInvalidBytes) {
  EXPECT_EQ(as_json("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  EXPECT_EQ(as_json("x\xff"), "\"x\\ufffd\"");
  // A surrogate half, as the JVM's modified UTF-8 writes supplementary characters.
  EXPECT_EQ(as_json("\xed\xa0\xbd"), "\"\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(as_json("\xc3"), "\"\\ufffd\"");                                   // truncated
  EXPECT_EQ(as_json("\xc0\xaf"), "\"\\ufffd\\ufffd\"");                        // overlong '/'
  EXPECT_EQ(as_json("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // above U+10FFFF
}

TEST(JsonString, AnyBytesGiveValidJsonThatKeepsEveryAsciiByte) {
  std::mt19937 rng(20261123);
  for (int round = 0; round < 20000; ++round) {
    std::string in(rng() % 48, '\0');
    for (char& c : in) c = static_cast<char>(rng() & 0xFF);
    std::string out = as_json(in);
    auto back = decode(out);
    ASSERT_TRUE(back) << "invalid JSON for round " << round << ": " << out;
    std::string ascii_in, ascii_back;
    for (char c : in)
      if (static_cast<unsigned char>(c) < 0x80) ascii_in += c;
    for (char c : *back)
      if (static_cast<unsigned char>(c) < 0x80) ascii_back += c;
    EXPECT_EQ(ascii_back, ascii_in) << "round " << round;
  }
}

TEST(JsonString, ValidUtf8RoundTripsExactly) {
  std::mt19937 rng(7);
  for (int round = 0; round < 20000; ++round) {
    std::string in;
    for (int n = rng() % 16; n > 0; --n) {
      uint32_t cp;
      switch (rng() % 4) {
        case 0:
          cp = rng() % 0x80;
          break;  // ASCII, controls, quotes, backslashes
        case 1:
          cp = 0x80 + rng() % (0x800 - 0x80);
          break;
        case 2:
          cp = 0x800 + rng() % (0x10000 - 0x800);
          break;
        default:
          cp = 0x10000 + rng() % (0x110000 - 0x10000);
          break;
      }
      if (cp >= 0xD800 && cp <= 0xDFFF) continue;  // not characters
      append_utf8(in, cp);
    }
    auto back = decode(as_json(in));
    ASSERT_TRUE(back) << round;
    EXPECT_EQ(*back, in) << round;
  }
}

}  // namespace
}  // namespace jvmsight
