#pragma once
// A client connection for the OTLP transports: TCP, or TLS with OpenSSL,
// every connect, handshake, read and write bounded by a deadline. The HTTP
// transport sends one HTTP/1.1 request per connection (http_post.h); the
// gRPC one keeps an HTTP/2 connection across exports (grpc_client.cpp).
// Never raises SIGPIPE (MSG_NOSIGNAL for every write, TLS included).
#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;

namespace jvmsight::otlp {

using Clock = std::chrono::steady_clock;

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

// The OpenSSL context of one transport, made on first use (an http://
// endpoint never touches OpenSSL).
class TlsContext {
 public:
  explicit TlsContext(TlsSettings settings) : settings_(std::move(settings)) {}
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;
  // The context, or null with `error` naming the file that could not be read.
  SSL_CTX* get(std::string& error);

 private:
  TlsSettings settings_;
  SSL_CTX* ctx_ = nullptr;
};

class Connection {
 public:
  // Connects to url.host:url.port, with TLS when url.tls (the certificate
  // must name the host; `alpn`, if not empty, is offered and must be the
  // server's choice). Null with `error` set on failure or at the deadline.
  static std::unique_ptr<Connection> open(const HttpUrl& url, TlsContext& tls, const std::string& alpn,
                                          Clock::time_point deadline, std::string& error);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  bool write_all(const char* data, size_t size);
  // Appends what arrives to `out`, waiting until the deadline: the byte
  // count, 0 at the end of the stream, -1 on error or timeout.
  ssize_t read_some(std::string& out);
  // Without waiting: true when bytes or the end of the stream are waiting to be read.
  bool readable_now() const;

 private:
  Connection(int fd, SSL* ssl) : fd_(fd), ssl_(ssl) {}
  bool wait_tls(int rc);
  int fd_;
  SSL* ssl_;
  Clock::time_point deadline_;
};

}  // namespace jvmsight::otlp
