#include "exporters/otlp/connection.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace jvmsight::otlp {
namespace {

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

// A TLS session on fd that checks the certificate names the host: as an IP
// address, or as a DNS name (also sent as SNI).
SSL* tls_session(SSL_CTX* ctx, int fd, const HttpUrl& url, const std::string& alpn) {
  SSL* ssl = SSL_new(ctx);
  if (ssl == nullptr) return nullptr;
  BIO* bio = BIO_new(nosignal_socket_method());
  BIO_set_fd(bio, fd, BIO_NOCLOSE);
  SSL_set_bio(ssl, bio, bio);
  in6_addr ip6;
  in_addr ip4;
  const bool literal =
      inet_pton(AF_INET, url.host.c_str(), &ip4) == 1 || inet_pton(AF_INET6, url.host.c_str(), &ip6) == 1;
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  if (literal) {
    X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl, url.host.c_str());
    SSL_set1_host(ssl, url.host.c_str());
  }
  if (!alpn.empty()) {
    // Wire format: one length byte, then the protocol name.
    std::string wire(1, static_cast<char>(alpn.size()));
    wire += alpn;
    SSL_set_alpn_protos(ssl, reinterpret_cast<const unsigned char*>(wire.data()), static_cast<unsigned>(wire.size()));
  }
  return ssl;
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

TlsContext::~TlsContext() {
  if (ctx_) SSL_CTX_free(ctx_);
}

SSL_CTX* TlsContext::get(std::string& error) {
  if (ctx_) return ctx_;
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) {
    error = "cannot create a TLS context";
    return nullptr;
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  bool ok = settings_.ca_file.empty() ? SSL_CTX_set_default_verify_paths(ctx) == 1
                                      : SSL_CTX_load_verify_locations(ctx, settings_.ca_file.c_str(), nullptr) == 1;
  if (!ok) error = "cannot read the OTLP certificate " + settings_.ca_file;
  if (ok && !settings_.client_cert_file.empty() &&
      SSL_CTX_use_certificate_chain_file(ctx, settings_.client_cert_file.c_str()) != 1) {
    error = "cannot read the OTLP client certificate " + settings_.client_cert_file;
    ok = false;
  }
  if (ok && !settings_.client_key_file.empty() &&
      SSL_CTX_use_PrivateKey_file(ctx, settings_.client_key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    error = "cannot read the OTLP client key " + settings_.client_key_file;
    ok = false;
  }
  if (!ok) {
    SSL_CTX_free(ctx);
    return nullptr;
  }
  ctx_ = ctx;
  return ctx_;
}

std::unique_ptr<Connection> Connection::open(const HttpUrl& url, TlsContext& tls, const std::string& alpn,
                                             Clock::time_point deadline, std::string& error) {
  SSL_CTX* ctx = nullptr;
  if (url.tls && (ctx = tls.get(error)) == nullptr) return nullptr;
  int fd = connect_to(url, deadline, error);
  if (fd < 0) return nullptr;
  SSL* ssl = url.tls ? tls_session(ctx, fd, url, alpn) : nullptr;
  std::unique_ptr<Connection> connection(new Connection(fd, ssl));
  connection->deadline_ = deadline;
  if (!url.tls) return connection;
  if (ssl == nullptr) {
    error = "cannot create a TLS session";
    return nullptr;
  }
  for (;;) {
    int rc = SSL_connect(ssl);
    if (rc == 1) break;
    if (!connection->wait_tls(rc)) {
      unsigned long e = ERR_get_error();
      char why[256] = "handshake failed or timed out";
      if (e) ERR_error_string_n(e, why, sizeof why);
      error = std::string("TLS: ") + why;
      return nullptr;
    }
  }
  if (!alpn.empty()) {
    const unsigned char* chosen = nullptr;
    unsigned chosen_size = 0;
    SSL_get0_alpn_selected(ssl, &chosen, &chosen_size);
    if (std::string(reinterpret_cast<const char*>(chosen), chosen_size) != alpn) {
      error = "TLS: the server did not agree to " + alpn + " (ALPN)";
      return nullptr;
    }
  }
  return connection;
}

Connection::~Connection() {
  if (ssl_) {
    if (SSL_is_init_finished(ssl_)) SSL_shutdown(ssl_);
    SSL_free(ssl_);
    ERR_clear_error();  // nothing of this connection may linger in the thread's error queue
  }
  close(fd_);
}

bool Connection::write_all(const char* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    if (ssl_) {
      size_t n = 0;
      int rc = SSL_write_ex(ssl_, data + done, size - done, &n);
      if (rc == 1) {
        done += n;
        continue;
      }
      if (!wait_tls(rc)) return false;
    } else {
      ssize_t n = send(fd_, data + done, size - done, MSG_NOSIGNAL);
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

ssize_t Connection::read_some(std::string& out) {
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

bool Connection::readable_now() const {
  if (ssl_ && SSL_pending(ssl_) > 0) return true;
  pollfd p{fd_, POLLIN, 0};
  return poll(&p, 1, 0) > 0;
}

bool Connection::wait_tls(int rc) {
  int e = SSL_get_error(ssl_, rc);
  if (e == SSL_ERROR_WANT_READ) return wait_for(fd_, POLLIN, deadline_);
  if (e == SSL_ERROR_WANT_WRITE) return wait_for(fd_, POLLOUT, deadline_);
  return false;
}

}  // namespace jvmsight::otlp
