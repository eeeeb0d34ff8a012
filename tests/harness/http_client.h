#pragma once
// A minimal blocking HTTP/1.0 client for loopback tests.
#include <chrono>
#include <string>

namespace jvmsight::test {

struct HttpResult {
  int status = 0;  // 0: no connection or no answer
  std::string headers;
  std::string body;
};

HttpResult http_get(int port, const std::string& path, const std::string& host = "127.0.0.1",
                    std::chrono::milliseconds timeout = std::chrono::seconds(10));
// Sends raw bytes and returns whatever comes back (for malformed-request tests).
HttpResult http_raw(int port, const std::string& request, std::chrono::milliseconds timeout = std::chrono::seconds(10));

// A client socket connected to the loopback port from source_ip (127.0.0.2
// is loopback to the kernel, but a server that counts only 127.0.0.1 as
// local sees a remote); -1 on failure.
int connect_from(const char* source_ip, int port);
// Reads until the server closes or the deadline passes; "" on timeout.
std::string read_all(int fd, std::chrono::milliseconds timeout, bool* closed = nullptr);
// GET path from source_ip: the whole answer as it came ("" if none).
std::string get_from(const char* source_ip, int port, const std::string& path, const std::string& headers = "");
// The status of a whole answer, 0 if it is not HTTP/1.1.
int status_of(const std::string& answer);

}  // namespace jvmsight::test
