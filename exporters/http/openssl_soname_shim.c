/* A stand-in that Debian 12's civetweb finds when it dlopen()s "libssl.so"
 * or "libcrypto.so" (built twice, with those SONAMEs; see tls.cpp for why).
 * Each one needs the real OpenSSL 3 library, so dlsym() through it finds
 * every OpenSSL function. The libssl one adds the one name civetweb 1.15
 * asks for that OpenSSL 3 no longer exports: SSL_get_peer_certificate,
 * which OpenSSL 3 turned into a macro for SSL_get1_peer_certificate (the
 * same function: the caller owns a reference to the certificate). */
#ifdef JVMSIGHT_LIBSSL_SHIM
typedef struct ssl_st SSL;
typedef struct x509_st X509;
X509* SSL_get1_peer_certificate(const SSL* ssl);
__attribute__((visibility("default"))) X509* SSL_get_peer_certificate(const SSL* ssl) {
  return SSL_get1_peer_certificate(ssl);
}
#else
/* The libcrypto stand-in defines nothing: its DT_NEEDED is all it is. */
typedef int jvmsight_libcrypto_shim_is_empty;
#endif
