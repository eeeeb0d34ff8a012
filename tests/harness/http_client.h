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

}  // namespace jvmsight::test
