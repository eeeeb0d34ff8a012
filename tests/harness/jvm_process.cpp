#include "tests/harness/jvm_process.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

namespace jvmsight::test {

// JVMSIGHT_TEST_AGENT: another build of the agent, e.g. the arm64 one that
// tests/arm64/run.sh tests in an emulated root (docs/ARM64.md).
std::string agent_path() {
  const char* other = getenv("JVMSIGHT_TEST_AGENT");
  return other && *other ? other : JVMSIGHT_AGENT_PATH;
}
std::string fixture_classpath() { return JVMSIGHT_FIXTURE_CLASSES; }
std::string agentpath_arg(const std::string& options) {
  return "-agentpath:" + agent_path() + (options.empty() ? "" : "=" + options);
}

TempDir::TempDir() {
  char tmpl[] = "/tmp/jvmsight-test-XXXXXX";
  dir_ = mkdtemp(tmpl);
}

TempDir::~TempDir() {
  if (!getenv("JVMSIGHT_KEEP_TEST_FILES")) std::system(("rm -rf '" + dir_ + "'").c_str());
}

std::string write_secret(const TempDir& dir, const std::string& name, const std::string& text, mode_t mode) {
  std::string path = dir.path(name);
  std::ofstream(path) << text;
  chmod(path.c_str(), mode);
  return path;
}

namespace {
std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

Process::Process(std::vector<std::string> argv, std::map<std::string, std::string> env) {
  int in_pipe[2];
  if (pipe(in_pipe) != 0) return;
  std::string out_path = dir_.path("stdout"), err_path = dir_.path("stderr");
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in_pipe[0], 0);
    close(in_pipe[1]);
    int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, 1);
    dup2(err, 2);
    setpgid(0, 0);
    for (const auto& [k, v] : env) {
      if (v.empty())
        unsetenv(k.c_str());
      else
        setenv(k.c_str(), v.c_str(), 1);
    }
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in_pipe[0]);
  stdin_fd_ = in_pipe[1];
  signal(SIGPIPE, SIG_IGN);
}

Process::~Process() {
  kill();
  if (stdin_fd_ >= 0) close(stdin_fd_);
}

void Process::send(const std::string& line) {
  std::string data = line + "\n";
  if (stdin_fd_ >= 0) (void)!write(stdin_fd_, data.data(), data.size());
}

void Process::close_stdin() {
  if (stdin_fd_ >= 0) close(stdin_fd_);
  stdin_fd_ = -1;
}

std::optional<int> Process::wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!status_) {
    int st = 0;
    pid_t r = waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      break;
    }
    if (r < 0) return std::nullopt;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(5ms);
  }
  return status_;
}

bool Process::running() { return pid_ > 0 && !wait(0ms); }

void Process::kill() {
  if (pid_ > 0 && running()) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
    wait(10s);
  }
}

std::string Process::out() const { return slurp(dir_.path("stdout")); }
std::string Process::err() const { return slurp(dir_.path("stderr")); }

std::optional<std::string> Process::wait_for_line(const std::string& prefix, std::chrono::milliseconds timeout,
                                                  size_t nth) const {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::stringstream ss(out());
    size_t seen = 0;
    for (std::string line; std::getline(ss, line);)
      if (line.rfind(prefix, 0) == 0 && ++seen == nth) return line;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(20ms);
  }
}

std::string Process::last_line(const std::string& prefix) const {
  std::stringstream ss(out());
  std::string last;
  for (std::string line; std::getline(ss, line);)
    if (line.rfind(prefix, 0) == 0) last = line;
  return last;
}

std::vector<std::string> java_command(const Jdk& jdk, const std::vector<std::string>& jvm_args,
                                      const std::string& main_class, const std::vector<std::string>& args) {
  std::vector<std::string> cmd{jdk.tool("java"), "-Xshare:auto", "-cp", fixture_classpath()};
  cmd.insert(cmd.end(), jvm_args.begin(), jvm_args.end());
  cmd.push_back(main_class);
  cmd.insert(cmd.end(), args.begin(), args.end());
  return cmd;
}

Completed run(std::vector<std::string> argv, std::map<std::string, std::string> env,
              std::chrono::milliseconds timeout) {
  Process p(std::move(argv), std::move(env));
  p.close_stdin();
  Completed c;
  auto status = p.wait(timeout);
  c.exit_code = status ? *status : -1;
  c.out = p.out();
  c.err = p.err();
  return c;
}

std::optional<int> read_portfile(const std::string& path, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    std::ifstream in(path);
    int port = 0;
    if (in >> port && port > 0) return port;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(20ms);
  }
}

std::map<std::string, long> parse_report(const std::string& line) {
  std::map<std::string, long> out;
  std::stringstream ss(line);
  for (std::string word; ss >> word;) {
    size_t eq = word.find('=');
    if (eq != std::string::npos) out[word.substr(0, eq)] = std::atol(word.c_str() + eq + 1);
  }
  return out;
}

Completed attach_agent(const Jdk& jdk, pid_t pid, const std::string& library, const std::string& options,
                       bool use_jattach, std::map<std::string, std::string> env) {
  if (use_jattach || jdk.feature < 9) {
    // jattach (Debian's package) prints "JVM response code = 0" and then the agent's return code.
    Completed c = run({"/usr/bin/jattach", std::to_string(pid), "load", library, "true", options}, std::move(env));
    std::istringstream lines(c.out);
    std::string line, last;
    while (std::getline(lines, line))
      if (!line.empty()) last = line;
    const bool loaded = c.exit_code == 0 && c.out.find("JVM response code = 0") != std::string::npos &&
                        (last == "0" || last == "return code: 0");
    if (!loaded && c.exit_code == 0) c.exit_code = 1;
    return c;
  }
  // jcmd's own quoting: the option string travels inside literal double quotes.
  Completed c =
      run({jdk.tool("jcmd"), std::to_string(pid), "JVMTI.agent_load", library, "\"" + options + "\""}, std::move(env));
  if (c.exit_code == 0 && c.out.find("return code: 0") == std::string::npos) c.exit_code = 1;
  return c;
}

Completed run_idle_with(const Jdk& jdk, const std::string& agent_arg) {
  Process jvm(java_command(jdk, {agent_arg}, "Idle"));
  Completed c;
  if (jvm.wait_for_line("READY", 60s)) jvm.send("exit");
  c.exit_code = jvm.wait(30s).value_or(-1);
  c.out = jvm.out();
  c.err = jvm.err();
  return c;
}

}  // namespace jvmsight::test
