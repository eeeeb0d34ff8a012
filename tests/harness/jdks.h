#pragma once
// The JDKs the integration tests run on: every full JDK under /usr/lib/jvm
// (or the homes listed in JVMSIGHT_TEST_JDKS, colon-separated), plus the
// extra ones scripts/install_jdks.sh put under the JDK roots directory
// (JVMSIGHT_JDK_ROOTS, default build/jdk-roots):
//   <roots>/host/usr/lib/jvm/*   run on this machine as they are (JDK 11);
//   <roots>/<other>/usr/lib/jvm/* run with chroot into <other> (a Debian 13
//                                root for JDK 8 and 21, which need glibc 2.38).
// Each suite says which of them it runs on (JdkRange; docs/TESTING.md).
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

namespace jvmsight::test {

struct Jdk {
  std::string home;    // as the JVM sees it (inside root, for a chrooted JDK)
  std::string root;    // "" for a JDK of this machine, else the root it runs in
  std::string bin;     // where tool() finds its commands (generated wrappers for a chrooted JDK)
  int feature = 0;     // 8, 11, 17, 21, 25...
  std::string name;    // "jdk17": used in test names
  bool extra = false;  // installed by scripts/install_jdks.sh, not this machine's own
  std::string tool(const std::string& name) const { return bin + "/" + name; }
};

// Which JDKs a suite runs on, declared once beside the suite
// (JVMSIGHT_JDKS in agent_jvm.h, or list() for a combined parameter):
// system_jdks() are this machine's own (/usr/lib/jvm: 17 and 25 here),
// extra_jdks() the installed ones (8, 11, 21), all_jdks() both; from(21)
// keeps JDK 21 and later.
class JdkRange {
 public:
  JdkRange(bool system, bool extra, int from_feature) : system_(system), extra_(extra), from_feature_(from_feature) {}
  JdkRange from(int feature) const { return JdkRange(system_, extra_, feature); }
  // Found once, then the same list (references into it stay valid).
  const std::vector<Jdk>& list() const;

 private:
  bool system_;
  bool extra_;
  int from_feature_;
};
inline JdkRange system_jdks() { return JdkRange(true, false, 0); }
inline JdkRange extra_jdks() { return JdkRange(false, true, 0); }
inline JdkRange all_jdks() { return JdkRange(true, true, 0); }

// The JDKs a suite runs on (a JdkRange: system_jdks(), all_jdks(),
// all_jdks().from(21)...) as gtest parameters, named jdk17, jdk25...
// Written once, beside the suite's fixture.
#define JVMSIGHT_JDKS(suite, range)                                                                                \
  INSTANTIATE_TEST_SUITE_P(Jdks, suite, ::testing::ValuesIn((range).list()),                                       \
                           [](const ::testing::TestParamInfo<::jvmsight::test::Jdk>& i) { return i.param.name; }); \
  GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(suite)
// How gtest prints a Jdk parameter.
inline void PrintTo(const Jdk& jdk, std::ostream* os) {
  *os << jdk.name << " (" << (jdk.root.empty() ? "" : jdk.root + " : ") << jdk.home << ")";
}
// Prints which JDKs were found and which expected ones are absent.
void print_jdk_summary();

}  // namespace jvmsight::test
