#pragma once
// What HTTPS is configured with, and which values are valid: plain data, no
// OpenSSL, so the option parser (options/) checks tls_min_version by the
// server's own rule without linking the server.
#include <string>

namespace jvmsight {

struct TlsConfig {
  std::string cert_file;            // PEM: the server certificate, then any intermediates
  std::string key_file;             // PEM: its private key (unencrypted)
  std::string min_version = "1.2";  // "1.2" or "1.3"
  bool enabled() const { return !cert_file.empty() || !key_file.empty(); }
};

// Whether the lowest TLS version is one the server can set.
inline bool valid_tls_min_version(const std::string& version) { return version == "1.2" || version == "1.3"; }

}  // namespace jvmsight
