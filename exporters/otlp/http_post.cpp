#include "exporters/otlp/http_post.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace jvmsight::otlp {
namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int ms_left(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::max<int64_t>(0, std::min<int64_t>(left, 1 << 30)));
}

bool wait_for(int fd, short events, Clock::time_point deadline) {
  pollfd p{fd, events, 0};
  for (;;) {
    int n = poll(&p, 1, ms_left(deadline));
    if (n > 0) return true;
    if (n == 0 || errno != EINTR) return false;
  }
}

// A connected non-blocking socket to host:port, or -1 (error set).
int connect_to(const HttpUrl& url, Clock::time_point deadline, std::string& error) {
  addrinfo hints{};
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  int rc = getaddrinfo(url.host.c_str(), url.port.c_str(), &hints, &found);
  if (rc != 0) {
    error = "cannot resolve " + url.host + ": " + gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  error = "cannot connect to " + url.host + ":" + url.port;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    if (connect(fd, a->ai_addr, a->ai_addrlen) != 0 && errno != EINPROGRESS) {
      error += std::string(" (") + std::strerror(errno) + ")";
      close(fd);
      fd = -1;
      continue;
    }
    int so_error = 0;
    socklen_t len = sizeof so_error;
    if (!wait_for(fd, POLLOUT, deadline) || getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) != 0 ||
        so_error != 0) {
      error += so_error ? std::string(" (") + std::strerror(so_error) + ")" : " (timed out)";
      close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(found);
  return fd;
}

// Reads and writes on a plain or TLS connection, each bounded by the deadline.
class Stream {
 public:
  Stream(int fd, SSL* ssl, Clock::time_point deadline) : fd_(fd), ssl_(ssl), deadline_(deadline) {}

  bool write_all(const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
      if (ssl_) {
        size_t n = 0;
        int rc = SSL_write_ex(ssl_, data.data() + done, data.size() - done, &n);
        if (rc == 1) {
          done += n;
          continue;
        }
        if (!wait_tls(rc)) return false;
      } else {
        ssize_t n = send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
        if (n > 0) {
          done += static_cast<size_t>(n);
          continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
        if (!wait_for(fd_, POLLOUT, deadline_)) return false;
      }
    }
    return true;
  }

  // Appends what arrives; 0 at the end of the stream, -1 on error or timeout.
  ssize_t read_some(std::string& out) {
    char buf[16384];
    for (;;) {
      if (ssl_) {
        size_t n = 0;
        int rc = SSL_read_ex(ssl_, buf, sizeof buf, &n);
        if (rc == 1) {
          out.append(buf, n);
          return static_cast<ssize_t>(n);
        }
        int e = SSL_get_error(ssl_, rc);
        if (e == SSL_ERROR_ZERO_RETURN) return 0;
        if (e == SSL_ERROR_SYSCALL && ERR_peek_error() == 0) return 0;  // closed without close_notify
        if (!wait_tls(rc)) return -1;
      } else {
        ssize_t n = recv(fd_, buf, sizeof buf, 0);
        if (n >= 0) {
          out.append(buf, static_cast<size_t>(n));
          return n;
        }
        if (errno != EAGAIN && errno != EINTR) return -1;
        if (!wait_for(fd_, POLLIN, deadline_)) return -1;
      }
    }
  }

  bool handshake() {
    for (;;) {
      int rc = SSL_connect(ssl_);
      if (rc == 1) return true;
      if (!wait_tls(rc)) return false;
    }
  }

 private:
  bool wait_tls(int rc) {
    int e = SSL_get_error(ssl_, rc);
    if (e == SSL_ERROR_WANT_READ) return wait_for(fd_, POLLIN, deadline_);
    if (e == SSL_ERROR_WANT_WRITE) return wait_for(fd_, POLLOUT, deadline_);
    return false;
  }
  int fd_;
  SSL* ssl_;
  Clock::time_point deadline_;
};

// Writes go through send(MSG_NOSIGNAL): a collector that closes mid-request
// must not raise SIGPIPE in the JVM.
int bio_write_nosignal(BIO* bio, const char* data, int len) {
  int fd = -1;
  BIO_get_fd(bio, &fd);
  BIO_clear_retry_flags(bio);
  ssize_t n = send(fd, data, static_cast<size_t>(len), MSG_NOSIGNAL);
  if (n < 0 && (errno == EAGAIN || errno == EINTR)) BIO_set_retry_write(bio);
  return static_cast<int>(n);
}

BIO_METHOD* nosignal_socket_method() {
  static BIO_METHOD* method = [] {
    BIO_METHOD* m = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK | BIO_TYPE_DESCRIPTOR, "nosignal");
    const BIO_METHOD* base = BIO_s_socket();
    BIO_meth_set_write(m, bio_write_nosignal);
    BIO_meth_set_read(m, BIO_meth_get_read(base));
    BIO_meth_set_puts(m, BIO_meth_get_puts(base));
    BIO_meth_set_ctrl(m, BIO_meth_get_ctrl(base));
    BIO_meth_set_create(m, BIO_meth_get_create(base));
    BIO_meth_set_destroy(m, BIO_meth_get_destroy(base));
    return m;
  }();
  return method;
}

// Status line and headers of a response in `data`; false while incomplete.
bool parse_head(const std::string& data, size_t& head_end, HttpReply& reply, long long& content_length, bool& chunked) {
  head_end = data.find("\r\n\r\n");
  if (head_end == std::string::npos) return false;
  size_t line_end = data.find("\r\n");
  std::string status_line = data.substr(0, line_end);
  size_t sp = status_line.find(' ');
  reply.status = sp == std::string::npos ? 0 : std::atoi(status_line.c_str() + sp + 1);
  for (size_t pos = line_end + 2; pos < head_end;) {
    size_t next = data.find("\r\n", pos);
    std::string line = data.substr(pos, next - pos);
    pos = next + 2;
    size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = lower(line.substr(0, colon));
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    if (name == "content-length") content_length = std::atoll(value.c_str());
    if (name == "transfer-encoding" && lower(value).find("chunked") != std::string::npos) chunked = true;
    if (name == "retry-after") reply.retry_after = value;
  }
  return true;
}

// Decodes a complete chunked body; false while incomplete.
bool dechunk(const std::string& in, std::string& out) {
  out.clear();
  size_t pos = 0;
  for (;;) {
    size_t line_end = in.find("\r\n", pos);
    if (line_end == std::string::npos) return false;
    size_t size = std::strtoul(in.c_str() + pos, nullptr, 16);
    if (size == 0) return true;
    if (in.size() < line_end + 2 + size + 2) return false;
    out.append(in, line_end + 2, size);
    pos = line_end + 2 + size + 2;
  }
}

}  // namespace

bool parse_http_url(const std::string& url, HttpUrl& out) {
  size_t rest;
  if (url.rfind("http://", 0) == 0) {
    out.tls = false;
    rest = 7;
  } else if (url.rfind("https://", 0) == 0) {
    out.tls = true;
    rest = 8;
  } else {
    return false;
  }
  size_t slash = url.find('/', rest);
  std::string authority = url.substr(rest, slash == std::string::npos ? std::string::npos : slash - rest);
  out.path = slash == std::string::npos ? "/" : url.substr(slash);
  out.port = out.tls ? "443" : "80";
  if (!authority.empty() && authority[0] == '[') {
    size_t close = authority.find(']');
    if (close == std::string::npos) return false;
    out.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size() && authority[close + 1] == ':') out.port = authority.substr(close + 2);
  } else {
    size_t colon = authority.rfind(':');
    out.host = authority.substr(0, colon);
    if (colon != std::string::npos) out.port = authority.substr(colon + 1);
  }
  return !out.host.empty() && !out.port.empty();
}

HttpPoster::~HttpPoster() {
  if (ctx_) SSL_CTX_free(static_cast<SSL_CTX*>(ctx_));
}

bool HttpPoster::ensure_tls_context(std::string& error) {
  if (ctx_) return true;
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) {
    error = "cannot create a TLS context";
    return false;
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  bool ok = tls_.ca_file.empty() ? SSL_CTX_set_default_verify_paths(ctx) == 1
                                 : SSL_CTX_load_verify_locations(ctx, tls_.ca_file.c_str(), nullptr) == 1;
  if (!ok) error = "cannot read the OTLP certificate " + tls_.ca_file;
  if (ok && !tls_.client_cert_file.empty() &&
      SSL_CTX_use_certificate_chain_file(ctx, tls_.client_cert_file.c_str()) != 1) {
    error = "cannot read the OTLP client certificate " + tls_.client_cert_file;
    ok = false;
  }
  if (ok && !tls_.client_key_file.empty() &&
      SSL_CTX_use_PrivateKey_file(ctx, tls_.client_key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "cannot read the OTLP client key " + tls_.client_key_file;
    ok = false;
  }
  if (!ok) {
    SSL_CTX_free(ctx);
    return false;
  }
  ctx_ = ctx;
  return true;
}

HttpReply HttpPoster::post(const HttpUrl& url, const std::vector<std::string>& headers, const std::string& body,
                           std::chrono::milliseconds timeout) {
  HttpReply reply;
  const auto deadline = Clock::now() + timeout;
  if (url.tls && !ensure_tls_context(reply.error)) return reply;
  int fd = connect_to(url, deadline, reply.error);
  if (fd < 0) return reply;
  SSL* ssl = nullptr;
  if (url.tls) {
    ssl = SSL_new(static_cast<SSL_CTX*>(ctx_));
    BIO* bio = BIO_new(nosignal_socket_method());
    BIO_set_fd(bio, fd, BIO_NOCLOSE);
    SSL_set_bio(ssl, bio, bio);
    in6_addr ip6;
    in_addr ip4;
    const bool literal =
        inet_pton(AF_INET, url.host.c_str(), &ip4) == 1 || inet_pton(AF_INET6, url.host.c_str(), &ip6) == 1;
    // The certificate must name the host: as an IP address, or as a DNS name (also sent as SNI).
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
    if (literal) {
      X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str());
    } else {
      SSL_set_tlsext_host_name(ssl, url.host.c_str());
      SSL_set1_host(ssl, url.host.c_str());
    }
  }
  Stream stream(fd, ssl, deadline);
  std::string request = "POST " + url.path + " HTTP/1.1\r\nHost: " + url.host + ":" + url.port + "\r\n";
  for (const auto& h : headers) request += h + "\r\n";
  request += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  if (ssl && !stream.handshake()) {
    unsigned long e = ERR_get_error();
    char why[256] = "handshake failed or timed out";
    if (e) ERR_error_string_n(e, why, sizeof why);
    reply.error = std::string("TLS: ") + why;
  } else if (!stream.write_all(request) || !stream.write_all(body)) {
    reply.error = "cannot send the request (connection closed or timed out)";
  } else {
    constexpr size_t body_limit = 1 << 20;  // a response body is small; never let one grow memory
    std::string data;
    size_t head_end = 0;
    long long content_length = -1;
    bool chunked = false, have_head = false;
    for (;;) {
      if (!have_head) have_head = parse_head(data, head_end, reply, content_length, chunked);
      if (have_head) {
        const size_t got = data.size() - head_end - 4;
        if (!chunked && content_length >= 0 && got >= static_cast<size_t>(content_length)) break;
        if (chunked && dechunk(data.substr(head_end + 4), reply.body)) break;
        if (got > body_limit) break;
      }
      ssize_t n = stream.read_some(data);
      if (n == 0) break;  // closed: the body ends here (Connection: close)
      if (n < 0) {
        reply.error = "no complete answer in time";
        reply.status = 0;
        break;
      }
    }
    if (have_head && !chunked) reply.body = data.substr(head_end + 4, body_limit);
    if (!have_head) {
      reply.status = 0;
      if (reply.error.empty()) reply.error = "the connection closed without an answer";
    }
  }
  if (ssl) {
    SSL_shutdown(ssl);
    SSL_free(ssl);
  }
  close(fd);
  return reply;
}

}  // namespace jvmsight::otlp
