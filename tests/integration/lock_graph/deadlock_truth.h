#pragma once
// The JVM's own verdict on a deadlock (the Deadlocks fixture prints what
// ThreadMXBean says), jstack's report of the same process, and the agent's
// report text, for the lock graph's suites.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <tuple>

#include "tests/harness/agent_jvm.h"

namespace jvmsight::test {

// "DEADLOCKED names=a,b all=2 monitor=2 at_ms=..." from the fixture.
struct Truth {
  std::set<std::string> names;
  long all = 0;
  long monitor = 0;
  long long at_ms = 0;  // wall clock when ThreadMXBean first saw it
};
Truth parse_truth(const std::string& line);

// Thread names in a report's "Found one Java-level deadlock" sections: the
// agent's (stderr, /deadlocks) and jstack's share the layout.
std::set<std::string> report_deadlocked(const std::string& text);
// The same of jstack's report on the process.
std::set<std::string> jstack_deadlocked(const Jdk& jdk, pid_t pid);

size_t count_of(const std::string& text, const std::string& what);
// Polls stderr until it contains `what`; the wall-clock time it was seen.
std::optional<long long> wait_for_stderr(const Process& p, const std::string& what, std::chrono::milliseconds timeout);

// A deadlock the fixture makes, and a class its report must name.
struct Case {
  std::string kind;
  std::string lock_class;
};
inline void PrintTo(const Case& c, std::ostream* os) { *os << c.kind; }
using JdkAndCase = std::tuple<Jdk, Case>;
std::string case_name(const ::testing::TestParamInfo<JdkAndCase>& i);

}  // namespace jvmsight::test
