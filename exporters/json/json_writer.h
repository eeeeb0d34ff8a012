#pragma once
// The one way jvmsight writes JSON. Commas and nesting are tracked here, and
// every key and string value goes through one escaper: thread names, class
// names and stack frames are untrusted text, so quotes, backslashes and
// control characters are escaped and bytes that are not valid UTF-8
// (including the surrogates of the JVM's modified UTF-8) become U+FFFD. The
// output is always valid JSON, whatever the input bytes.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace jvmsight {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The next value belongs to this key (inside an object).
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(int64_t number);
  JsonWriter& value(uint64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();

  // The document so far, with a final newline (HTTP bodies end with one).
  std::string finish() &&;

 private:
  void before_value();
  void open(char bracket);
  void close(char bracket);

  std::string out_;
  std::vector<bool> empty_;  // one per open container: nothing written in it yet
  bool after_key_ = false;
};

// Appends s as a quoted JSON string (the escaper JsonWriter uses).
void append_json_string(std::string& out, std::string_view s);

}  // namespace jvmsight
