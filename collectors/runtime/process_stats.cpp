#include "collectors/runtime/process_stats.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <string>

namespace jvmsight {
namespace {

std::optional<uint64_t> to_u64(std::string_view s) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  return v;
}

std::string_view skip_spaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

// Files under /proc are small; a bounded read keeps a surprise from costing
// much. Plain read(2) into a stack buffer: this runs on every scrape.
std::string read_file(const char* path) {
  constexpr size_t limit = 64 * 1024;
  std::string text;
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  while (text.size() < limit) {
    const ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, std::min(static_cast<size_t>(n), limit - text.size()));
  }
  ::close(fd);
  return text;
}

// Since Linux 6.2 the size stat() gives /proc/self/fd is the number of open
// descriptors: no directory to list (a listing makes a dentry per
// descriptor, tens of microseconds a scrape). Earlier kernels say 0 there.
std::optional<double> open_fd_count() {
  struct stat fds {};
  if (stat("/proc/self/fd", &fds) == 0 && fds.st_size > 0) return static_cast<double>(fds.st_size);
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return std::nullopt;
  double n = 0;
  while (const dirent* e = readdir(dir))
    if (e->d_name[0] != '.') ++n;
  closedir(dir);
  return n - 1;  // the directory stream's own descriptor
}

// Read once: it never changes, and /proc/self/stat sums the CPU times of
// every thread as it is read (about 1 ms at 10,000 threads).
std::optional<double> start_time_seconds() {
  static const std::optional<double> once = [] {
    const long ticks = sysconf(_SC_CLK_TCK);
    auto start = start_ticks_from_stat(read_file("/proc/self/stat"));
    auto boot = boot_time_from_proc_stat(read_file("/proc/stat"));
    if (!start || !boot || ticks <= 0) return std::optional<double>();
    return std::optional<double>(static_cast<double>(*boot) + static_cast<double>(*start) / static_cast<double>(ticks));
  }();
  return once;
}

}  // namespace

std::optional<uint64_t> start_ticks_from_stat(std::string_view stat) {
  size_t close = stat.rfind(')');
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view rest = stat.substr(close + 1);
  // Fields after the command: state (3) ... starttime (22), 19 fields on.
  for (int field = 3; field < 22; ++field) {
    rest = skip_spaces(rest);
    size_t space = rest.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(space);
  }
  return to_u64(skip_spaces(rest));
}

std::optional<uint64_t> boot_time_from_proc_stat(std::string_view proc_stat) {
  for (size_t pos = 0; pos < proc_stat.size();) {
    size_t end = proc_stat.find('\n', pos);
    if (end == std::string_view::npos) end = proc_stat.size();
    std::string_view line = proc_stat.substr(pos, end - pos);
    if (line.substr(0, 6) == "btime ") return to_u64(skip_spaces(line.substr(6)));
    pos = end + 1;
  }
  return std::nullopt;
}

std::optional<uint64_t> status_bytes(std::string_view status, std::string_view key) {
  for (size_t pos = 0; pos < status.size();) {
    size_t end = status.find('\n', pos);
    if (end == std::string_view::npos) end = status.size();
    std::string_view line = status.substr(pos, end - pos);
    if (line.size() > key.size() && line.substr(0, key.size()) == key && line[key.size()] == ':') {
      auto kb = to_u64(skip_spaces(line.substr(key.size() + 1)));
      if (kb) return *kb * 1024;
      return std::nullopt;
    }
    pos = end + 1;
  }
  return std::nullopt;
}

std::optional<double> read_process_cpu_seconds() {
  timespec cpu{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) != 0) return std::nullopt;
  return static_cast<double>(cpu.tv_sec) + static_cast<double>(cpu.tv_nsec) / 1e9;
}

ProcessStats read_process_stats(bool cpu) {
  ProcessStats p;
  if (cpu) p.cpu_seconds = read_process_cpu_seconds();
  p.start_time_seconds = start_time_seconds();
  p.open_fds = open_fd_count();
  rlimit files{};
  if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY)
    p.max_fds = static_cast<double>(files.rlim_cur);
  std::string status = read_file("/proc/self/status");
  if (auto v = status_bytes(status, "VmSize")) p.virtual_bytes = static_cast<double>(*v);
  if (auto v = status_bytes(status, "VmRSS")) p.resident_bytes = static_cast<double>(*v);
  return p;
}

}  // namespace jvmsight
