#include "tests/harness/jfr_print.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/harness/jvm_process.h"

namespace jvmsight::test {
namespace {

// "50.3 ms" and the like: a duration as `jfr print` writes it.
double jfr_seconds(const std::string& value) {
  std::stringstream in(value);
  double v = 0;
  std::string unit;
  in >> v >> unit;
  if (unit == "ns") return v / 1e9;
  if (unit == "us") return v / 1e6;
  if (unit == "ms") return v / 1e3;
  if (unit == "s") return v;
  ADD_FAILURE() << "unknown jfr duration unit in '" << value << "'";
  return 0;
}

}  // namespace

std::vector<JfrEvent> jfr_events(const Jdk& jdk, const std::string& file, const std::string& type) {
  Completed c = run({jdk.tool("jfr"), "print", "--events", type, file});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  // An event: "type {", then "  field = value" lines; its stack trace is
  // "  stackTrace = [", one frame a line ("    Class.method(args) line: N"),
  // "  ]"; then "}".
  std::vector<JfrEvent> events;
  std::stringstream lines(c.out);
  bool in_stack = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(type + " {", 0) == 0) {
      events.emplace_back();
      in_stack = false;
      continue;
    }
    if (events.empty()) continue;
    JfrEvent& e = events.back();
    const size_t field = line.find_first_not_of(' ');
    if (field == std::string::npos) continue;
    if (line.compare(field, 11, "duration = ") == 0) e.seconds = jfr_seconds(line.substr(field + 11));
    if (line.compare(field, 14, "stackTrace = [") == 0) {
      in_stack = true;
      continue;
    }
    if (in_stack) {
      if (e.top_frame.empty() && line[field] != ']') e.top_frame = line.substr(field, line.find(" line:") - field);
      if (line[field] == ']') in_stack = false;
    }
  }
  return events;
}

}  // namespace jvmsight::test
