#pragma once
// A real JVM (or JDK tool) run as a child process, with stdout and stderr
// captured to files and stdin as a pipe the test can write commands to.
#include <sys/types.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/harness/jdks.h"

namespace jvmsight::test {

using namespace std::chrono_literals;

// Absolute paths handed over by the build (the agent: unless
// JVMSIGHT_TEST_AGENT names another).
std::string agent_path();
std::string fixture_classpath();

// "-agentpath:<agent>=<options>"
std::string agentpath_arg(const std::string& options);

// A fresh temporary directory for one test; removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  std::string dir_;
};

// Writes text to dir/name with these permissions (a credentials file,
// 0600 unless a test wants it readable by others); returns the path.
std::string write_secret(const TempDir& dir, const std::string& name, const std::string& text, mode_t mode = 0600);

class Process {
 public:
  // argv[0] is the program (absolute path). env: extra variables; a value of
  // "" removes the variable.
  Process(std::vector<std::string> argv, std::map<std::string, std::string> env = {});
  ~Process();  // kills the process if still running
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  pid_t pid() const { return pid_; }
  void send(const std::string& line);  // writes line + '\n' to stdin
  void close_stdin();
  // Waits for the exit; nullopt on timeout. The exit status or 128+signal.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  bool running();
  void kill();

  std::string out() const;
  std::string err() const;
  // Polls stdout until a line starts with prefix; returns the whole line.
  std::optional<std::string> wait_for_line(const std::string& prefix, std::chrono::milliseconds timeout,
                                           size_t nth = 1) const;
  // The last stdout line starting with prefix.
  std::string last_line(const std::string& prefix) const;

 private:
  pid_t pid_ = -1;
  int stdin_fd_ = -1;
  std::optional<int> status_;
  TempDir dir_;
};

// A JVM running a fixture main class from tests/java.
std::vector<std::string> java_command(const Jdk& jdk, const std::vector<std::string>& jvm_args,
                                      const std::string& main_class, const std::vector<std::string>& args = {});

// Runs a command to completion (e.g. jcmd, jps) and returns exit code, stdout, stderr.
struct Completed {
  int exit_code = -1;
  std::string out;
  std::string err;
};
Completed run(std::vector<std::string> argv, std::map<std::string, std::string> env = {},
              std::chrono::milliseconds timeout = 60s);

// Loads a library into a running JVM with these options, as a user would:
// jcmd JVMTI.agent_load where the JDK has it (9+), jattach on JDK 8 or when
// asked. exit_code is 0 only if the library's Agent_OnAttach returned 0.
Completed attach_agent(const Jdk& jdk, pid_t pid, const std::string& library, const std::string& options,
                       bool use_jattach = false, std::map<std::string, std::string> env = {});

// Runs the Idle fixture with this agent argument ("-agentpath:..."): tells
// it to exit once it is READY, and returns how it ended.
Completed run_idle_with(const Jdk& jdk, const std::string& agent_arg);

// Polls for a port written by the agent's portfile option.
std::optional<int> read_portfile(const std::string& path, std::chrono::milliseconds timeout);

// "key=value key=value" (the fixtures' report lines) as a map.
std::map<std::string, long> parse_report(const std::string& line);

}  // namespace jvmsight::test
