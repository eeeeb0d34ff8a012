#pragma once
// HTTPS for the exporter's server: the certificate, key and lowest TLS
// version, and OpenSSL, loaded at run time only when HTTPS is asked for.
#include <cstddef>
#include <memory>
#include <string>

#include "exporters/http/tls_settings.h"

namespace jvmsight {

// Loads OpenSSL 3 (see tls.cpp); once per process, later calls return the
// first result. "" or why HTTPS cannot be had.
std::string prepare_openssl();

// Loads the certificate chain and key into an SSL_CTX, checks that they
// match, and sets the lowest protocol version. "" or one sentence naming
// the file and OpenSSL's reason. Needs prepare_openssl first.
std::string configure_tls_context(void* ssl_ctx, const TlsConfig& config);

// The server side of TLS on non-blocking sockets: one OpenSSL context with
// the certificate, and a session per connection. One thread at a time
// (OpenSSL keeps its error queue per thread).
//
// The certificate and key files are read again when they change (checked at
// most once a second, when a connection opens), as cert-manager and
// Kubernetes secret volumes rotate them: new connections get the new pair,
// open ones keep theirs. A pair that does not load (a half-written rotation)
// is warned once and the old one serves on.
class TlsServer {
 public:
  // Null, and error set to one sentence, when OpenSSL or the files fail.
  static std::unique_ptr<TlsServer> create(const TlsConfig& config, std::string& error);
  ~TlsServer();
  TlsServer(const TlsServer&) = delete;
  TlsServer& operator=(const TlsServer&) = delete;

  // What a step on a session did: finished, needs the socket readable or
  // writable first, or the session is over (an error, or the peer closed).
  enum class Step { done, want_read, want_write, over };
  struct Session;
  // A session on a connected socket; null if OpenSSL refused one.
  Session* open(int fd);
  Step handshake(Session* s) const;
  Step read(Session* s, char* buffer, size_t capacity, size_t& got) const;
  Step write(Session* s, const char* data, size_t size, size_t& written) const;
  // Sends the closing alert if it can without waiting, and frees the session.
  void close(Session* s) const;

 private:
  TlsServer() = default;
  Step step(Session* s, int result) const;
  // A configured SSL_CTX for config_, or null with error set.
  void* make_context(std::string& error) const;
  void reload_if_changed();

  TlsConfig config_;
  std::string loaded_stamp_;     // identity of the files in ctx_ (file_stamp)
  std::string failed_stamp_;     // of the last pair that failed to load, warned once
  long long next_check_ms_ = 0;  // steady clock
  void* ctx_ = nullptr;          // SSL_CTX
  const void* (*method_)() = nullptr;
  void* (*ctx_new_)(const void*) = nullptr;
  long (*ctx_ctrl_)(void*, int, long, void*) = nullptr;
  void (*ctx_free_)(void*) = nullptr;
  void* (*new_)(void*) = nullptr;
  void (*free_)(void*) = nullptr;
  int (*set_fd_)(void*, int) = nullptr;
  int (*accept_)(void*) = nullptr;
  int (*read_)(void*, void*, int) = nullptr;
  int (*write_)(void*, const void*, int) = nullptr;
  int (*shutdown_)(void*) = nullptr;
  int (*get_error_)(const void*, int) = nullptr;
  void (*clear_errors_)() = nullptr;
};

}  // namespace jvmsight
