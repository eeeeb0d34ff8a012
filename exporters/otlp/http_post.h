#pragma once
// One HTTP/1.1 POST over TCP, or TLS with OpenSSL, within a deadline: just
// what an OTLP/HTTP export needs, so the HTTP transport maps libssl (and
// only touches it for https) instead of libcurl's closure (LDAP, Kerberos,
// GnuTLS, SSH...: about 4 MiB resident for nothing; docs/BENCHMARKS.md).
// One connection per request (Connection: close): exports come seconds
// apart. Never raises SIGPIPE (MSG_NOSIGNAL for every write, TLS included).
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace jvmsight::otlp {

struct HttpUrl {
  bool tls = false;
  std::string host;  // a name, an IPv4 address or an [IPv6] address without brackets
  std::string port;
  std::string path;  // from the first '/', "/" if none
};
// http[s]://host[:port][/path]; false when it is not such a URL.
bool parse_http_url(const std::string& url, HttpUrl& out);

struct TlsSettings {
  std::string ca_file;           // trusted roots (PEM); empty: the system's
  std::string client_cert_file;  // PEM, with client_key_file: mTLS
  std::string client_key_file;
};

struct HttpReply {
  int status = 0;     // 0: no HTTP answer (see error)
  std::string error;  // why there was no answer
  std::string body;   // at most 1 MiB is kept
  std::string retry_after;
};

class HttpPoster {
 public:
  explicit HttpPoster(TlsSettings tls) : tls_(std::move(tls)) {}
  ~HttpPoster();
  HttpPoster(const HttpPoster&) = delete;
  HttpPoster& operator=(const HttpPoster&) = delete;

  // headers: "Name: value" lines without CRLF.
  HttpReply post(const HttpUrl& url, const std::vector<std::string>& headers, const std::string& body,
                 std::chrono::milliseconds timeout);

 private:
  bool ensure_tls_context(std::string& error);
  TlsSettings tls_;
  void* ctx_ = nullptr;  // SSL_CTX, made on the first https request
};

}  // namespace jvmsight::otlp
