#include "exporters/http/tls.h"

#include <dlfcn.h>
#include <openssl/err.h>  // constants and inline helpers only: OpenSSL is reached through dlsym
#include <openssl/ssl.h>
#include <openssl/x509err.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cstring>
#include <fstream>

#include "common/log.h"

namespace jvmsight {
namespace {

// OpenSSL is loaded at run time, only for HTTPS: a JVM serving plain HTTP
// maps none of it, and the agent links no OpenSSL. dlopen() from here
// searches this library's RUNPATH before the system's directories, so a
// bundle's own libssl.so.3 (beside libjvmsight.so, RUNPATH $ORIGIN) wins
// over the image's. dlsym()
// through libssl reaches libcrypto, its dependency. Never dlclosed:
// TlsServer keeps the function pointers.
struct OpenSsl {
  std::string error;
  void* ssl = nullptr;
};

OpenSsl load_openssl() {
  OpenSsl out;
  out.ssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
  if (out.ssl == nullptr) {
    const char* why = dlerror();
    out.error = std::string(
                    "HTTPS needs OpenSSL 3 (libssl.so.3 and libcrypto.so.3; Debian: libssl3), which cannot be "
                    "loaded: ") +
                (why ? why : "unknown error");
  }
  return out;
}

const OpenSsl& openssl() {
  static const OpenSsl loaded = load_openssl();  // thread-safe, once
  return loaded;
}

template <class Fn>
Fn resolve(const char* name) {
  return reinterpret_cast<Fn>(dlsym(openssl().ssl, name));
}

// "" when the file can be opened, else why not (the system's reason).
std::string unreadable(const char* option, const std::string& path) {
  if (path.empty()) return std::string(option) + " is missing (tls_cert_file and tls_key_file go together)";
  std::ifstream in(path);
  if (!in) return std::string("cannot read ") + option + " '" + path + "': " + std::strerror(errno);
  return "";
}

// Which file a path names now and its size and time: a rotation (a new file
// or a secret volume's symlink swap) changes it. "" when either is missing.
std::string file_stamp(const TlsConfig& config) {
  std::string stamp;
  for (const std::string* path : {&config.cert_file, &config.key_file}) {
    struct stat st {};
    if (stat(path->c_str(), &st) != 0) return "";
    stamp += std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
             std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) + ";";
  }
  return stamp;
}

long long steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string prepare_openssl() { return openssl().error; }

std::string configure_tls_context(void* ctx, const TlsConfig& config) {
  if (openssl().ssl == nullptr) return "OpenSSL is not loaded";
  auto chain = resolve<int (*)(void*, const char*)>("SSL_CTX_use_certificate_chain_file");
  auto key = resolve<int (*)(void*, const char*, int)>("SSL_CTX_use_PrivateKey_file");
  auto check = resolve<int (*)(const void*)>("SSL_CTX_check_private_key");
  auto ctrl = resolve<long (*)(void*, int, long, void*)>("SSL_CTX_ctrl");
  auto no_password = resolve<void (*)(void*, int (*)(char*, int, int, void*))>("SSL_CTX_set_default_passwd_cb");
  auto next_error = resolve<unsigned long (*)()>("ERR_get_error");
  auto reason_of = resolve<const char* (*)(unsigned long)>("ERR_reason_error_string");
  if (!chain || !key || !check || !ctrl || !no_password || !next_error || !reason_of)
    return "the loaded OpenSSL lacks a TLS function";
  // OpenSSL queues its errors per thread; the first one says what went wrong.
  unsigned long first = 0;
  auto reason = [&] {
    first = next_error();
    const char* text = first ? reason_of(first) : nullptr;
    while (next_error() != 0) {
    }
    return std::string(text ? text : "unknown OpenSSL error");
  };
  auto not_its_key = [&] {
    return "tls_key_file '" + config.key_file + "' is not the key of the certificate in '" + config.cert_file + "'";
  };
  for (auto [option, path] :
       {std::pair{"tls_cert_file", &config.cert_file}, std::pair{"tls_key_file", &config.key_file}}) {
    std::string problem = unreadable(option, *path);
    if (!problem.empty()) return problem;
  }
  // An encrypted key must fail, not make OpenSSL prompt on the JVM's terminal.
  no_password(ctx, [](char*, int, int, void*) { return 0; });
  if (chain(ctx, config.cert_file.c_str()) != 1)
    return "tls_cert_file '" + config.cert_file + "' holds no usable PEM certificate: " + reason();
  if (key(ctx, config.key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    std::string why = reason();
    // A valid key of another certificate fails here already.
    if (ERR_GET_REASON(first) == X509_R_KEY_VALUES_MISMATCH) return not_its_key();
    return "tls_key_file '" + config.key_file + "' holds no usable unencrypted PEM private key: " + why;
  }
  if (check(ctx) != 1) return not_its_key() + ": " + reason();
  long lowest = config.min_version == "1.3" ? TLS1_3_VERSION : TLS1_2_VERSION;
  if (ctrl(ctx, SSL_CTRL_SET_MIN_PROTO_VERSION, lowest, nullptr) != 1)
    return "OpenSSL refused TLS " + config.min_version + " as the lowest version: " + reason();
  return "";
}

}  // namespace jvmsight

namespace jvmsight {

struct TlsServer::Session {};  // OpenSSL's SSL, opaque here

std::unique_ptr<TlsServer> TlsServer::create(const TlsConfig& config, std::string& error) {
  error = prepare_openssl();
  if (!error.empty()) return nullptr;
  std::unique_ptr<TlsServer> tls(new TlsServer());
  tls->config_ = config;
  tls->method_ = resolve<const void* (*)()>("TLS_server_method");
  tls->ctx_new_ = resolve<void* (*)(const void*)>("SSL_CTX_new");
  tls->ctx_ctrl_ = resolve<long (*)(void*, int, long, void*)>("SSL_CTX_ctrl");
  tls->ctx_free_ = resolve<void (*)(void*)>("SSL_CTX_free");
  tls->new_ = resolve<void* (*)(void*)>("SSL_new");
  tls->free_ = resolve<void (*)(void*)>("SSL_free");
  tls->set_fd_ = resolve<int (*)(void*, int)>("SSL_set_fd");
  tls->accept_ = resolve<int (*)(void*)>("SSL_accept");
  tls->read_ = resolve<int (*)(void*, void*, int)>("SSL_read");
  tls->write_ = resolve<int (*)(void*, const void*, int)>("SSL_write");
  tls->shutdown_ = resolve<int (*)(void*)>("SSL_shutdown");
  tls->get_error_ = resolve<int (*)(const void*, int)>("SSL_get_error");
  tls->clear_errors_ = resolve<void (*)()>("ERR_clear_error");
  if (!tls->method_ || !tls->ctx_new_ || !tls->ctx_ctrl_ || !tls->ctx_free_ || !tls->new_ || !tls->free_ ||
      !tls->set_fd_ || !tls->accept_ || !tls->read_ || !tls->write_ || !tls->shutdown_ || !tls->get_error_ ||
      !tls->clear_errors_) {
    error = "the loaded OpenSSL lacks a TLS function";
    return nullptr;
  }
  tls->loaded_stamp_ = file_stamp(config);
  tls->ctx_ = tls->make_context(error);
  if (tls->ctx_ == nullptr) return nullptr;
  tls->next_check_ms_ = steady_ms() + 1000;
  return tls;
}

void* TlsServer::make_context(std::string& error) const {
  void* ctx = ctx_new_(method_());
  if (ctx == nullptr) {
    error = "OpenSSL cannot make a TLS server context";
    return nullptr;
  }
  error = configure_tls_context(ctx, config_);
  if (!error.empty()) {
    ctx_free_(ctx);
    return nullptr;
  }
  // Non-blocking writes: a partial write is progress, and the next try may
  // come with the rest of the buffer, not the same pointer.
  ctx_ctrl_(ctx, SSL_CTRL_MODE, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER, nullptr);
  return ctx;
}

// Sessions hold a reference to their context (OpenSSL counts them), so the
// old one may be freed while connections still use it.
void TlsServer::reload_if_changed() {
  const long long now = steady_ms();
  if (now < next_check_ms_) return;
  next_check_ms_ = now + 1000;
  const std::string stamp = file_stamp(config_);
  if (stamp.empty() || stamp == loaded_stamp_) return;
  std::string error;
  void* fresh = make_context(error);
  if (fresh == nullptr) {
    if (stamp != failed_stamp_)
      log::warn("https: the changed certificate files do not load; serving the old pair: ", error);
    failed_stamp_ = stamp;
    return;
  }
  ctx_free_(ctx_);
  ctx_ = fresh;
  loaded_stamp_ = stamp;
  log::info("https: reloaded ", config_.cert_file, " and ", config_.key_file);
}

TlsServer::~TlsServer() {
  if (ctx_ != nullptr) ctx_free_(ctx_);
}

TlsServer::Session* TlsServer::open(int fd) {
  reload_if_changed();
  void* ssl = new_(ctx_);
  if (ssl == nullptr) return nullptr;
  if (set_fd_(ssl, fd) != 1) {
    free_(ssl);
    return nullptr;
  }
  return static_cast<Session*>(ssl);
}

TlsServer::Step TlsServer::step(Session* s, int result) const {
  if (result > 0) return Step::done;
  switch (get_error_(s, result)) {
    case SSL_ERROR_WANT_READ:
      return Step::want_read;
    case SSL_ERROR_WANT_WRITE:
      return Step::want_write;
    default:
      return Step::over;  // the peer closed, a protocol error, or a socket error
  }
}

TlsServer::Step TlsServer::handshake(Session* s) const {
  clear_errors_();  // SSL_get_error reads this thread's queue: only this call's errors may be in it
  return step(s, accept_(s));
}

TlsServer::Step TlsServer::read(Session* s, char* buffer, size_t capacity, size_t& got) const {
  clear_errors_();
  int n = read_(s, buffer, static_cast<int>(std::min<size_t>(capacity, INT_MAX)));
  got = n > 0 ? static_cast<size_t>(n) : 0;
  return step(s, n);
}

TlsServer::Step TlsServer::write(Session* s, const char* data, size_t size, size_t& written) const {
  clear_errors_();
  int n = write_(s, data, static_cast<int>(std::min<size_t>(size, INT_MAX)));
  written = n > 0 ? static_cast<size_t>(n) : 0;
  return step(s, n);
}

void TlsServer::close(Session* s) const {
  clear_errors_();
  shutdown_(s);  // queues and tries to send close_notify; never waits for the peer's
  clear_errors_();
  free_(s);
}

}  // namespace jvmsight
