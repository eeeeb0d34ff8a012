#pragma once
// The JDKs the integration tests run on: every full JDK under /usr/lib/jvm
// (or the homes listed in JVMSIGHT_TEST_JDKS, colon-separated), plus the
// extra ones scripts/install_jdks.sh put under the JDK roots directory
// (JVMSIGHT_JDK_ROOTS, default build/jdk-roots):
//   <roots>/host/usr/lib/jvm/*   run on this machine as they are (JDK 11);
//   <roots>/<other>/usr/lib/jvm/* run with chroot into <other> (a Debian 13
//                                root for JDK 8 and 21, which need glibc 2.38).
// The extra JDKs run the core suites only (core_jdks(); docs/TESTING.md).
#include <ostream>
#include <string>
#include <vector>

namespace jvmsight::test {

struct Jdk {
  std::string home;        // as the JVM sees it (inside root, for a chrooted JDK)
  std::string root;        // "" for a JDK of this machine, else the root it runs in
  std::string bin;         // where tool() finds its commands (generated wrappers for a chrooted JDK)
  int feature = 0;         // 8, 11, 17, 21, 25...
  std::string name;        // "jdk17": used in test names
  bool core_only = false;  // installed for the core suites only (an extra JDK)
  std::string tool(const std::string& name) const { return bin + "/" + name; }
};

// The JDKs every integration suite runs on.
const std::vector<Jdk>& jdks();
// Those plus the extra JDKs: for the core suites (JVMSIGHT_CORE_JDKS).
const std::vector<Jdk>& core_jdks();
// How gtest prints a Jdk parameter.
inline void PrintTo(const Jdk& jdk, std::ostream* os) {
  *os << jdk.name << " (" << (jdk.root.empty() ? "" : jdk.root + " : ") << jdk.home << ")";
}
// Prints which JDKs were found and which expected ones are absent.
void print_jdk_summary();

}  // namespace jvmsight::test
