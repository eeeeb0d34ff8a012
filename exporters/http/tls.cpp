#include "exporters/http/tls.h"

#include <dlfcn.h>
#include <openssl/err.h>  // constants and inline helpers only: OpenSSL is reached through dlsym
#include <openssl/ssl.h>
#include <openssl/x509err.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "common/own_directory.h"

namespace jvmsight {
namespace {

// Debian 12's civetweb 1.15 loads OpenSSL itself, at run time, by the
// names "libcrypto.so" and "libssl.so" (which only libssl-dev installs),
// and asks for SSL_get_peer_certificate, which OpenSSL 3 (the only OpenSSL
// of Debian 12) no longer exports. Alone, it cannot serve HTTPS at all.
// The dynamic linker answers a dlopen() by name with an object already
// loaded under that SONAME, so two stand-ins loaded first, with SONAMEs
// libcrypto.so and libssl.so and the real libcrypto.so.3 / libssl.so.3 as
// dependencies, are what civetweb gets; dlsym() through them reaches all
// of OpenSSL 3, plus the one missing name (openssl_soname_shim.c).
// Never dlclosed: civetweb keeps the function pointers.
struct OpenSsl {
  std::string error;
  void* ssl = nullptr;  // the libssl stand-in; dlsym through it reaches libssl.so.3 and libcrypto.so.3
};

OpenSsl load_openssl(const std::string& library_dir) {
  OpenSsl out;
  const std::string dir = library_dir.empty() ? own_directory() + "/tls" : library_dir;
  for (const char* name : {"libjvmsight-libcrypto.so", "libjvmsight-libssl.so"}) {
    const std::string path = dir + "/" + name;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
      const char* why = dlerror();
      out.error = "HTTPS needs OpenSSL 3 (libssl.so.3, libcrypto.so.3; Debian: libssl3) and " + path +
                  ", which cannot be loaded: " + (why ? why : "unknown error");
      return out;
    }
    out.ssl = handle;
  }
  return out;
}

const OpenSsl& openssl(const std::string& library_dir) {
  static const OpenSsl loaded = load_openssl(library_dir);  // thread-safe, once
  return loaded;
}

template <class Fn>
Fn resolve(const char* name) {
  return reinterpret_cast<Fn>(dlsym(openssl("").ssl, name));
}

// "" when the file can be opened, else why not (the system's reason).
std::string unreadable(const char* option, const std::string& path) {
  if (path.empty()) return std::string(option) + " is missing (tls_cert_file and tls_key_file go together)";
  std::ifstream in(path);
  if (!in) return std::string("cannot read ") + option + " '" + path + "': " + std::strerror(errno);
  return "";
}

}  // namespace

bool valid_tls_min_version(const std::string& version) { return version == "1.2" || version == "1.3"; }

std::string prepare_openssl(const std::string& library_dir) { return openssl(library_dir).error; }

std::string configure_tls_context(void* ctx, const TlsConfig& config) {
  if (openssl("").ssl == nullptr) return "OpenSSL is not loaded";
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
