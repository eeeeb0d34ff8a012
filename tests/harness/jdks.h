#pragma once
// The JDKs the integration tests run on: every full JDK under /usr/lib/jvm
// (or the homes listed in JVMSIGHT_TEST_JDKS, colon-separated).
#include <ostream>
#include <string>
#include <vector>

namespace jvmsight::test {

struct Jdk {
  std::string home;
  int feature = 0;   // 17, 21, 25...
  std::string name;  // "jdk17": used in test names
  std::string tool(const std::string& name) const { return home + "/bin/" + name; }
};

const std::vector<Jdk>& jdks();
// gtest prints parameters with this instead of their bytes.
inline void PrintTo(const Jdk& jdk, std::ostream* os) { *os << jdk.name; }
// Prints which JDKs were found and which expected ones are absent.
void print_jdk_summary();

}  // namespace jvmsight::test
