#include "tests/harness/jdks.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

namespace jvmsight::test {
namespace {

// JAVA_VERSION="17.0.2" -> 17, "1.8.0_472" -> 8.
int feature_of(const std::string& release_file) {
  std::ifstream release(release_file);
  std::string line;
  while (std::getline(release, line)) {
    if (line.rfind("JAVA_VERSION=", 0) != 0) continue;
    std::string v = line.substr(line.find('"') + 1);
    if (v.rfind("1.", 0) == 0) v = v.substr(2);
    return std::atoi(v.c_str());
  }
  return 0;
}

std::vector<std::string> list_dir(const std::string& dir) {
  std::vector<std::string> out;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d))
      if (e->d_name[0] != '.') out.push_back(e->d_name);
    closedir(d);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string roots_dir() {
  const char* env = getenv("JVMSIGHT_JDK_ROOTS");
  return env && *env ? env : JVMSIGHT_JDK_ROOTS;
}

// A chrooted JDK's commands: one script per tool that runs it inside the
// root in a mount namespace of its own, with /proc, /dev, /tmp and the
// source and build trees bind-mounted at the same paths (so the agent, the
// fixtures and the attach files in /tmp are where they are outside), and the
// portable bundle over the agent's build directory: the build tree's OTLP
// plugin needs Debian 12's libraries, the bundle carries them. The process
// keeps its pid through every exec, so the tests attach to it as to any JVM.
std::string write_wrappers(const std::string& root, const std::string& home, const std::string& dir) {
  const std::string agent = JVMSIGHT_AGENT_PATH;
  const std::string agent_dir = agent.substr(0, agent.rfind('/'));
  for (size_t slash = dir.find('/', 1); slash != std::string::npos; slash = dir.find('/', slash + 1))
    mkdir(dir.substr(0, slash).c_str(), 0755);
  mkdir(dir.c_str(), 0755);
  for (const auto& tool : list_dir(root + home + "/bin")) {
    const std::string path = dir + "/" + tool, tmp = path + ".tmp";
    std::ofstream out(tmp);
    out << "#!/bin/sh\n# Written by tests/harness/jdks.cpp: " << home << "/bin/" << tool << " inside " << root << "\n"
        << "exec /usr/bin/unshare --mount /bin/sh -c 'r=$1 bundle=$2 agent=$3; shift 3\n"
        << "for d in \"$@\"; do [ \"$d\" = -- ] && break; mkdir -p \"$r$d\" && mount --bind \"$d\" \"$r$d\" || exit "
           "125; "
           "done\n"
        << "while [ \"$1\" != -- ]; do shift; done; shift\n"
        << "mount --rbind /dev \"$r/dev\" || exit 125\n"
        << "if [ -d \"$bundle\" ]; then mount --bind \"$bundle\" \"$r$agent\" || exit 125; fi\n"
        << "exec /usr/sbin/chroot \"$r\" \"$@\"' sh '" << root << "' '" << JVMSIGHT_JDK_BUNDLE << "' '" << agent_dir
        << "' /proc /tmp '" << JVMSIGHT_SOURCE_DIR << "' '" << JVMSIGHT_BINARY_DIR << "' -- '" << home << "/bin/"
        << tool << "' \"$@\"\n";
    out.close();
    chmod(tmp.c_str(), 0755);
    rename(tmp.c_str(), path.c_str());
  }
  return dir;
}

struct Candidate {
  std::string home, root;
  bool extra = false;
};

std::vector<Candidate> candidates() {
  std::vector<Candidate> out;
  if (const char* env = getenv("JVMSIGHT_TEST_JDKS"); env && *env) {
    std::stringstream ss(env);
    for (std::string h; std::getline(ss, h, ':');)
      if (!h.empty()) out.push_back({h, "", false});
  } else {
    for (const auto& e : list_dir("/usr/lib/jvm")) out.push_back({"/usr/lib/jvm/" + e, "", false});
  }
  const std::string roots = roots_dir();
  for (const auto& r : list_dir(roots)) {
    const std::string root = roots + "/" + r;
    for (const auto& e : list_dir(root + "/usr/lib/jvm")) {
      if (r == "host")
        out.push_back({root + "/usr/lib/jvm/" + e, "", true});
      else
        out.push_back({"/usr/lib/jvm/" + e, root, true});
    }
  }
  return out;
}

std::vector<Jdk> discover() {
  std::vector<Jdk> found;
  std::set<std::string> seen;
  for (const auto& c : candidates()) {
    char real[PATH_MAX];
    const std::string outside = c.root + c.home;
    // Inside a root, links are relative to it: the real path of bin/java
    // outside tells aliases apart only for JDKs of this machine.
    if (access((outside + "/bin/jcmd").c_str(), F_OK) != 0 || !realpath((outside + "/bin").c_str(), real)) continue;
    if (!seen.insert(c.root.empty() ? std::string(real) : outside).second) continue;
    struct stat st;
    if (!c.root.empty() && lstat(outside.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) continue;  // an alias
    Jdk jdk;
    jdk.home = c.home;
    jdk.root = c.root;
    jdk.extra = c.extra;
    jdk.feature = feature_of(outside + "/release");
    // Debian's JDK 8 ships no release file; rt.jar is JDK 8's (modules replaced it in 9).
    if (jdk.feature == 0 && access((outside + "/jre/lib/rt.jar").c_str(), F_OK) == 0) jdk.feature = 8;
    if (jdk.feature == 0) continue;
    jdk.name = "jdk" + std::to_string(jdk.feature);
    for (const auto& other : found)
      if (other.name == jdk.name) jdk.name += "_" + std::to_string(found.size());
    // <roots>/bin/jdk8 looks like a JDK home from outside (bench/common.sh runs its bin/java).
    jdk.bin =
        c.root.empty() ? c.home + "/bin" : write_wrappers(c.root, c.home, roots_dir() + "/bin/" + jdk.name + "/bin");
    found.push_back(jdk);
  }
  return found;
}

const std::vector<Jdk>& found_jdks() {
  static const std::vector<Jdk> all = discover();
  return all;
}

}  // namespace

const std::vector<Jdk>& JdkRange::list() const {
  static std::mutex mutex;
  static std::map<std::tuple<bool, bool, int>, std::vector<Jdk>> lists;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, added] = lists.try_emplace({system_, extra_, from_feature_});
  if (added)
    for (const auto& j : found_jdks())
      if ((j.extra ? extra_ : system_) && j.feature >= from_feature_) it->second.push_back(j);
  return it->second;
}

void print_jdk_summary() {
  std::printf("[jvmsight] JDKs under test:");
  bool has21 = false;
  for (const auto& j : found_jdks()) {
    std::printf(" %s (%s%s%s)", j.name.c_str(), j.root.empty() ? "" : "chroot ", j.root.empty() ? "" : j.root.c_str(),
                (j.root.empty() ? j.home : " " + j.home).c_str());
    if (j.extra) std::printf(" [extra: suites of all_jdks()]");
    has21 = has21 || j.feature >= 21;
  }
  std::printf("\n");
  if (found_jdks().empty()) std::printf("[jvmsight] no JDK found: every JVM test is skipped\n");
  if (!has21)
    std::printf("[jvmsight] no JDK 21+ found (e.g. Temurin 25 under /usr/lib/jvm): virtual-thread tests are skipped\n");
  std::printf("[jvmsight] JDK 8, 11, 21 from Debian: scripts/install_jdks.sh (run by quickstart.sh test)\n");
  std::fflush(stdout);
}

}  // namespace jvmsight::test
