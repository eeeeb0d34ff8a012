#include "tests/harness/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdlib>

namespace jvmsight::test {

HttpResult http_raw(int port, const std::string& request, std::chrono::milliseconds timeout) {
  HttpResult r;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return r;
  timeval tv{static_cast<time_t>(timeout.count() / 1000), static_cast<suseconds_t>((timeout.count() % 1000) * 1000)};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    close(fd);
    return r;
  }
  (void)!write(fd, request.data(), request.size());
  std::string data;
  char buf[65536];
  for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;) data.append(buf, static_cast<size_t>(n));
  close(fd);
  size_t split = data.find("\r\n\r\n");
  if (data.rfind("HTTP/", 0) != 0 || split == std::string::npos) return r;
  r.status = std::atoi(data.c_str() + data.find(' ') + 1);
  r.headers = data.substr(0, split);
  r.body = data.substr(split + 4);
  return r;
}

HttpResult http_get(int port, const std::string& path, const std::string& host, std::chrono::milliseconds timeout) {
  return http_raw(port, "GET " + path + " HTTP/1.0\r\nHost: " + host + "\r\n\r\n", timeout);
}

}  // namespace jvmsight::test
