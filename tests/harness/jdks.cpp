#include "tests/harness/jdks.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace jvmsight::test {
namespace {

int feature_of(const std::string& home) {
  std::ifstream release(home + "/release");
  std::string line;
  while (std::getline(release, line)) {
    if (line.rfind("JAVA_VERSION=", 0) != 0) continue;
    std::string v = line.substr(line.find('"') + 1);
    return std::atoi(v.c_str());
  }
  return 0;
}

std::vector<Jdk> discover() {
  std::vector<std::string> homes;
  if (const char* env = getenv("JVMSIGHT_TEST_JDKS"); env && *env) {
    std::stringstream ss(env);
    for (std::string h; std::getline(ss, h, ':');)
      if (!h.empty()) homes.push_back(h);
  } else if (DIR* dir = opendir("/usr/lib/jvm")) {
    while (dirent* e = readdir(dir))
      if (e->d_name[0] != '.') homes.push_back(std::string("/usr/lib/jvm/") + e->d_name);
    closedir(dir);
    std::sort(homes.begin(), homes.end());
  }
  std::vector<Jdk> found;
  std::set<std::string> seen;
  for (const auto& home : homes) {
    char real[PATH_MAX];
    if (access((home + "/bin/jcmd").c_str(), X_OK) != 0 || !realpath((home + "/bin/java").c_str(), real)) continue;
    if (!seen.insert(real).second) continue;  // java-17-openjdk-amd64 and its aliases are one JDK
    Jdk jdk;
    jdk.home = home;
    jdk.feature = feature_of(home);
    if (jdk.feature == 0) continue;
    jdk.name = "jdk" + std::to_string(jdk.feature);
    for (const auto& other : found)
      if (other.name == jdk.name) jdk.name += "_" + std::to_string(found.size());
    found.push_back(jdk);
  }
  return found;
}

}  // namespace

const std::vector<Jdk>& jdks() {
  static const std::vector<Jdk> all = discover();
  return all;
}

void print_jdk_summary() {
  std::printf("[jvmsight] JDKs under test:");
  bool has21 = false;
  for (const auto& j : jdks()) {
    std::printf(" %s (%s)", j.name.c_str(), j.home.c_str());
    has21 = has21 || j.feature >= 21;
  }
  std::printf("\n");
  if (jdks().empty()) std::printf("[jvmsight] no JDK found: every JVM test is skipped\n");
  if (!has21)
    std::printf("[jvmsight] no JDK 21+ found (e.g. Temurin 25 under /usr/lib/jvm): virtual-thread tests are skipped\n");
  std::fflush(stdout);
}

}  // namespace jvmsight::test
