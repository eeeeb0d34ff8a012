// HTTPS on the real server with real clients: curl over loopback trusts
// only a CA made for the test; the certificate, key and version checks
// refuse to listen rather than serve with a bad setup; certificate files
// replaced under a running server serve new connections.
#include "exporters/http/tls.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "exporters/http/http_server.h"
#include "tests/harness/endpoints.h"
#include "tests/harness/test_ca.h"

namespace jvmsight {
namespace {

using test::curl;

// A port nobody listens on right now (bound, read back, released).
int free_port() {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a));
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

bool accepts_connections(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0;
  close(fd);
  return ok;
}

class Https : public ::testing::Test {
 protected:
  void SetUp() override {
    test::make_test_ca(ca_);
    ASSERT_EQ(ca_.error, "");
  }

  HttpServerConfig tls_config(const std::string& cert, const std::string& key) const {
    HttpServerConfig c;
    c.tls.cert_file = cert;
    c.tls.key_file = key;
    return c;
  }

  std::vector<HttpRoute> routes() const {
    return {test::route("/metrics", [](const HttpRequest&) {
      return HttpResponse{200, plain_content_type, "up 1\n"};
    })};
  }

  std::string url(int port, const std::string& path = "/metrics") const {
    return "https://127.0.0.1:" + std::to_string(port) + path;
  }

  // Starting must fail, with a message holding `expected`, and nothing may listen.
  void expect_refused(HttpServerConfig config, const std::string& expected) {
    const int port = free_port();
    config.port = port;
    std::string error;
    auto server = HttpServer::start(std::move(config), routes(), error);
    EXPECT_FALSE(server) << "started with " << expected;
    EXPECT_NE(error.find(expected), std::string::npos) << error;
    EXPECT_FALSE(accepts_connections(port)) << "a listener is left on " << port;
  }

  test::TestCa ca_;
};

TEST_F(Https, CurlTrustingTheTestCaGetsMetrics) {
  std::string error;
  auto server = HttpServer::start(tls_config(ca_.server_cert, ca_.server_key), routes(), error);
  ASSERT_TRUE(server) << error;
  auto ok = curl({"--cacert", ca_.ca_cert, url(server->port())});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, "up 1\n");
  // Without the CA the certificate is not trusted: it really is verified.
  auto untrusted = curl({url(server->port())});
  EXPECT_EQ(untrusted.exit_code, 60) << untrusted.err;  // CURLE_PEER_FAILED_VERIFICATION
  // Plain HTTP on the HTTPS port gets no answer of ours.
  auto plain = curl({"http://127.0.0.1:" + std::to_string(server->port()) + "/metrics"});
  EXPECT_NE(plain.out, "up 1\n");
  // The server serves on after both.
  EXPECT_EQ(curl({"--cacert", ca_.ca_cert, url(server->port())}).out, "up 1\n");
}

TEST_F(Https, BasicAuthOverTls) {
  test::TempDir dir;
  std::string users = dir.path("users");
  std::ofstream(users) << "prometheus:s3cret:with:colons\n";
  chmod(users.c_str(), 0600);
  HttpServerConfig config = tls_config(ca_.server_cert, ca_.server_key);
  std::string warning;
  ASSERT_EQ(read_credentials(users, "", config.credentials, warning), "");
  std::string error;
  auto server = HttpServer::start(std::move(config), routes(), error);
  ASSERT_TRUE(server) << error;
  auto status = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"--cacert", ca_.ca_cert, "-o", "/dev/null", "-w", "%{http_code}"});
    args.push_back(url(server->port()));
    return curl(args).out;
  };
  EXPECT_EQ(status({}), "401");
  EXPECT_EQ(status({"-u", "prometheus:wrong"}), "401");
  EXPECT_EQ(status({"-u", "prometheus:s3cret:with:colons"}), "200");
}

TEST_F(Https, MinimumVersionIsEnforced) {
  HttpServerConfig config = tls_config(ca_.server_cert, ca_.server_key);
  config.tls.min_version = "1.3";
  std::string error;
  auto server = HttpServer::start(std::move(config), routes(), error);
  ASSERT_TRUE(server) << error;
  auto old = curl({"--cacert", ca_.ca_cert, "--tls-max", "1.2", url(server->port())});
  EXPECT_NE(old.exit_code, 0) << "TLS 1.2 was accepted";
  auto v13 = curl({"--cacert", ca_.ca_cert, "--tlsv1.3", "-w", "%{http_code}", "-o", "/dev/null", url(server->port())});
  EXPECT_EQ(v13.out, "200") << v13.err;
  // The default (1.2) takes a TLS 1.2 client.
  std::string error12;
  auto server12 = HttpServer::start(tls_config(ca_.server_cert, ca_.server_key), routes(), error12);
  ASSERT_TRUE(server12) << error12;
  EXPECT_EQ(curl({"--cacert", ca_.ca_cert, "--tls-max", "1.2", url(server12->port())}).out, "up 1\n");
}

TEST_F(Https, BadCertificateOrKeyRefusesToListen) {
  test::TempDir dir;
  std::string garbage = dir.path("garbage.pem");
  std::ofstream(garbage) << "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n";
  expect_refused(tls_config(dir.path("missing.pem"), ca_.server_key),
                 "cannot read tls_cert_file '" + dir.path("missing.pem") + "': No such file or directory");
  expect_refused(tls_config(garbage, ca_.server_key),
                 "tls_cert_file '" + garbage + "' holds no usable PEM certificate");
  expect_refused(tls_config(ca_.server_cert, garbage), "tls_key_file '" + garbage + "' holds no usable");
  expect_refused(tls_config(ca_.server_cert, ca_.other_key),
                 "tls_key_file '" + ca_.other_key + "' is not the key of the certificate");
  expect_refused(tls_config(ca_.server_cert, ""), "HTTPS needs both tls_cert_file and tls_key_file");
  HttpServerConfig bad_version = tls_config(ca_.server_cert, ca_.server_key);
  bad_version.tls.min_version = "1.0";
  expect_refused(bad_version, "tls_min_version must be 1.2 or 1.3");
  // After all of that, a good setup still serves.
  std::string error;
  auto server = HttpServer::start(tls_config(ca_.server_cert, ca_.server_key), routes(), error);
  ASSERT_TRUE(server) << error;
  EXPECT_EQ(curl({"--cacert", ca_.ca_cert, url(server->port())}).out, "up 1\n");
}

TEST_F(Https, EncryptedKeyFailsWithoutPrompting) {
  std::string encrypted = ca_.dir.path("encrypted.key");
  auto done = test::run(
      {"/usr/bin/openssl", "pkey", "-in", ca_.server_key, "-aes256", "-passout", "pass:secret", "-out", encrypted});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  expect_refused(tls_config(ca_.server_cert, encrypted), "holds no usable unencrypted PEM private key");
}

TEST(HttpsReload, ReplacedCertificateFilesServeNewConnections) {
  test::TestCa first, second;
  test::make_test_ca(first);
  test::make_test_ca(second);
  ASSERT_EQ(first.error, "");
  ASSERT_EQ(second.error, "");
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(first.server_cert).parent_path() / "served";
  fs::create_directories(dir);
  fs::copy_file(first.server_cert, dir / "tls.crt");
  fs::copy_file(first.server_key, dir / "tls.key");
  HttpServerConfig config;
  config.tls.cert_file = dir / "tls.crt";
  config.tls.key_file = dir / "tls.key";
  std::string error;
  auto s = HttpServer::start(config, {test::route("/m", [](const HttpRequest&) { return plain_response(200, "ok"); })},
                             error);
  ASSERT_TRUE(s) << error;
  const std::string url = "https://127.0.0.1:" + std::to_string(s->port()) + "/m";
  EXPECT_EQ(test::curl({"-s", "--cacert", first.ca_cert, url}).out, "ok");
  // As a secret volume does it: new files, renamed into place.
  fs::copy_file(second.server_cert, dir / "tls.crt.new");
  fs::copy_file(second.server_key, dir / "tls.key.new");
  fs::rename(dir / "tls.crt.new", dir / "tls.crt");
  fs::rename(dir / "tls.key.new", dir / "tls.key");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // checked at most once a second
  EXPECT_EQ(test::curl({"-s", "--cacert", second.ca_cert, url}).out, "ok");
  EXPECT_NE(test::curl({"-s", "--cacert", first.ca_cert, url}).exit_code, 0);
  // A broken pair (a key of nothing) is refused; the last good one serves on.
  fs::copy_file(first.other_key, dir / "tls.key", fs::copy_options::overwrite_existing);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(test::curl({"-s", "--cacert", second.ca_cert, url}).out, "ok");
}

}  // namespace
}  // namespace jvmsight
