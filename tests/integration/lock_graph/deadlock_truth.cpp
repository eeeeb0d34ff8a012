#include "tests/integration/lock_graph/deadlock_truth.h"

#include <sstream>
#include <thread>

namespace jvmsight::test {

Truth parse_truth(const std::string& line) {
  Truth t;
  std::stringstream ss(line);
  for (std::string word; ss >> word;) {
    size_t eq = word.find('=');
    if (eq == std::string::npos) continue;
    std::string key = word.substr(0, eq), value = word.substr(eq + 1);
    if (key == "names") {
      std::stringstream names(value);
      for (std::string n; std::getline(names, n, ',');)
        if (!n.empty()) t.names.insert(n);
    } else if (key == "all")
      t.all = std::stol(value);
    else if (key == "monitor")
      t.monitor = std::stol(value);
    else if (key == "at_ms")
      t.at_ms = std::stoll(value);
  }
  return t;
}

namespace {

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::set<std::string> report_deadlocked(const std::string& text) {
  std::set<std::string> names;
  std::stringstream ss(text);
  bool in_summary = false;
  for (std::string line; std::getline(ss, line);) {
    if (line.rfind("Found one Java-level deadlock", 0) == 0)
      in_summary = true;
    else if (line.rfind("Java stack information", 0) == 0)
      in_summary = false;
    else if (in_summary && line.size() > 3 && line[0] == '"' && line.substr(line.size() - 2) == "\":")
      names.insert(line.substr(1, line.size() - 3));
  }
  return names;
}

std::set<std::string> jstack_deadlocked(const Jdk& jdk, pid_t pid) {
  Completed c = run({jdk.tool("jstack"), std::to_string(pid)}, {{"JAVA_TOOL_OPTIONS", ""}});
  EXPECT_EQ(c.exit_code, 0) << c.err;
  return report_deadlocked(c.out);
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// Polls stderr until it contains `what`; the wall-clock time it was seen.
std::optional<long long> wait_for_stderr(const Process& p, const std::string& what, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (p.err().find(what) != std::string::npos) return now_ms();
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(5ms);
  }
}

std::string case_name(const ::testing::TestParamInfo<JdkAndCase>& i) {
  return std::get<0>(i.param).name + "_" + std::get<1>(i.param).kind;
}

}  // namespace jvmsight::test
