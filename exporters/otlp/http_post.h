#pragma once
// One HTTP/1.1 POST over a Connection (connection.h) within a deadline:
// just what an OTLP/HTTP export needs, so the HTTP transport maps libssl
// (and only touches it for https) instead of libcurl's closure (LDAP,
// Kerberos, GnuTLS, SSH...: about 4 MiB resident for nothing). The answer is
// read by ResponseReader (http_response.h). One
// connection per request (Connection: close): exports come seconds apart.
#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "exporters/otlp/connection.h"
#include "exporters/otlp/http_response.h"

namespace jvmsight::otlp {

class HttpPoster {
 public:
  explicit HttpPoster(TlsSettings tls) : tls_(std::move(tls)) {}

  // headers: "Name: value" lines without CRLF.
  HttpReply post(const HttpUrl& url, const std::vector<std::string>& headers, const std::string& body,
                 std::chrono::milliseconds timeout);

 private:
  TlsContext tls_;
};

}  // namespace jvmsight::otlp
