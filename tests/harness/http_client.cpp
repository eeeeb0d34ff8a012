#include "tests/harness/http_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
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

int connect_from(const char* source_ip, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in src{};
  src.sin_family = AF_INET;
  inet_pton(AF_INET, source_ip, &src.sin_addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof(src)) != 0) {
    close(fd);
    return -1;
  }
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(static_cast<uint16_t>(port));
  dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string read_all(int fd, std::chrono::milliseconds timeout, bool* closed) {
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) {
      if (closed) *closed = true;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

int status_of(const std::string& answer) {
  return answer.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(answer.c_str() + 9) : 0;
}

std::string get_from(const char* source_ip, int port, const std::string& path, const std::string& headers) {
  int fd = connect_from(source_ip, port);
  if (fd < 0) return "";
  const std::string request = "GET " + path + " HTTP/1.0\r\n" + headers + "\r\n";
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer = read_all(fd, std::chrono::seconds(5));
  close(fd);
  return answer;
}

}  // namespace jvmsight::test
