#pragma once
// HTTPS for the exporter's server: the certificate, key and lowest TLS
// version, and the OpenSSL that Debian's civetweb loads at run time.
#include <string>

namespace jvmsight {

struct TlsConfig {
  std::string cert_file;            // PEM: the server certificate, then any intermediates
  std::string key_file;             // PEM: its private key (unencrypted)
  std::string min_version = "1.2";  // "1.2" or "1.3"
  // Where the two OpenSSL stand-ins (libjvmsight-libssl.so,
  // libjvmsight-libcrypto.so) are: "" = the tls/ directory next to the
  // shared object this code is in (libjvmsight.so).
  std::string library_dir;
  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

// Makes civetweb's run-time load of OpenSSL work (see tls.cpp); once per
// process, later calls return the first result. "" or why HTTPS cannot be
// had.
std::string prepare_openssl(const std::string& library_dir);

// Loads the certificate chain and key into civetweb's SSL_CTX, checks that
// they match, and sets the lowest protocol version. "" or one sentence
// naming the file and OpenSSL's reason. Needs prepare_openssl first.
std::string configure_tls_context(void* ssl_ctx, const TlsConfig& config);

// "" when the setting is valid (also what the option parser accepts).
bool valid_tls_min_version(const std::string& version);

}  // namespace jvmsight
