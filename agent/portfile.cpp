#include "agent/portfile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace jvmsight {

std::string errno_text(int err) {
  char buf[128] = {0};
  // GNU strerror_r returns the message, in buf or a static string.
  const char* text = strerror_r(err, buf, sizeof(buf));
  return text != nullptr ? text : "error " + std::to_string(err);
}

std::string write_portfile(const std::string& path, int port) {
  std::string tmp = path + ".tmp." + std::to_string(getpid());
  auto failed = [&](const char* step, int err) {
    unlink(tmp.c_str());
    return "cannot write portfile '" + path + "' (" + step + "): " + errno_text(err);
  };
  int fd = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot write portfile '" + path + "': " + errno_text(errno);
  std::string line = std::to_string(port) + "\n";
  ssize_t written = write(fd, line.data(), line.size());
  int write_errno = errno;
  if (close(fd) != 0 && written >= 0) {
    write_errno = errno;
    written = -1;
  }
  if (written != static_cast<ssize_t>(line.size())) return failed("write", written < 0 ? write_errno : ENOSPC);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) return failed("rename", errno);
  return "";
}

std::string remove_portfile(const std::string& path) {
  if (unlink(path.c_str()) == 0 || errno == ENOENT) return "";
  return "cannot remove the stale portfile '" + path + "': " + errno_text(errno);
}

}  // namespace jvmsight
