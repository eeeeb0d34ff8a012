// POST routes with a body (the injector's /mutate) on the project's server,
// and certificate files replaced under a running HTTPS server, over real
// loopback sockets; curl as the TLS client.
#include <gtest/gtest.h>
#include <stdio.h>

#include <filesystem>
#include <thread>

#include "exporters/http/http_server.h"
#include "tests/harness/http_client.h"
#include "tests/harness/test_ca.h"

namespace jvmsight {
namespace {

using test::http_raw;

std::unique_ptr<HttpServer> serve_echo(int max_body_bytes) {
  HttpServerConfig config;
  config.max_body_bytes = max_body_bytes;
  std::vector<HttpRoute> routes;
  routes.push_back(
      {"/echo", [](const HttpRequest& r) { return plain_response(200, r.method + ":" + r.body); }, "echo"});
  routes.back().post = true;
  routes.push_back({"/get", [](const HttpRequest&) { return plain_response(200, "got"); }, "get"});
  std::string error;
  auto s = HttpServer::start(config, std::move(routes), error);
  EXPECT_TRUE(s) << error;
  return s;
}

TEST(HttpPost, BodyReachesThePostRoute) {
  auto s = serve_echo(1024);
  auto r = http_raw(s->port(), "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\nhello world");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "POST:hello world");
  // A body that arrives in pieces after the head.
  std::string big(1000, 'b');
  r = http_raw(s->port(), "POST /echo HTTP/1.1\r\nContent-Length: 1000\r\n\r\n" + big);
  EXPECT_EQ(r.body, "POST:" + big);
}

TEST(HttpPost, MethodsAndLimits) {
  auto s = serve_echo(16);
  auto r = http_raw(s->port(), "POST /echo HTTP/1.1\r\nContent-Length: 17\r\n\r\n" + std::string(17, 'x'));
  EXPECT_EQ(r.status, 413);
  r = http_raw(s->port(), "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n");
  EXPECT_EQ(r.status, 411);
  r = http_raw(s->port(), "POST /echo HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(r.status, 400);
  r = http_raw(s->port(), "GET /echo HTTP/1.0\r\n\r\n");
  EXPECT_EQ(r.status, 405);
  EXPECT_NE(r.headers.find("Allow: POST"), std::string::npos);
  r = http_raw(s->port(), "POST /get HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(r.status, 405);
  EXPECT_NE(r.headers.find("Allow: GET, HEAD"), std::string::npos);
  // A body shorter than announced: cut off at the request timeout, the
  // server serves on.
  http_raw(s->port(), "POST /echo HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc", std::chrono::milliseconds(200));
  EXPECT_EQ(http_raw(s->port(), "POST /echo HTTP/1.0\r\nContent-Length: 2\r\n\r\nok").body, "POST:ok");
}

TEST(HttpPost, WithoutBodyRoutesPostIsRefused) {
  auto s = serve_echo(0);  // the agent's setting
  auto r = http_raw(s->port(), "POST /echo HTTP/1.0\r\nContent-Length: 2\r\n\r\nok");
  EXPECT_EQ(r.status, 405);
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
  auto s = HttpServer::start(config, {{"/m", [](const HttpRequest&) { return plain_response(200, "ok"); }}}, error);
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
