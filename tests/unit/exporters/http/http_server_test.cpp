// The exporter's HTTP server over real loopback sockets: port 0, routing,
// methods, POST bodies, hostile requests, credentials and detail routes
// enforced per route, the absolute request form, IPv6, a busy port.
#include "exporters/http/http_server.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <memory>

#include "exporters/http/access.h"
#include "exporters/http/http_request.h"
#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"
#include "tests/harness/serve.h"
#include "tests/harness/test_ca.h"
#include "tests/unit/exporters/http/credentials_files.h"

namespace jvmsight {
namespace {

using namespace std::chrono_literals;
using test::get_from;
using test::http_get;
using test::http_raw;
using test::route;
using test::serve;
using test::status_of;

HttpRoute text_route(const std::string& path, std::atomic<int>* calls = nullptr) {
  return test::route(path, [calls](const HttpRequest&) {
    if (calls) ++*calls;
    return HttpResponse{200, plain_content_type, "dump\n"};
  });
}

HttpServerConfig only_127_0_0_1_is_local() {
  HttpServerConfig c;
  c.is_local = [](const std::string& addr) { return addr == "127.0.0.1"; };
  return c;
}

HttpRoute ok_route(const std::string& path) {
  return test::route(path, [](const HttpRequest& r) {
    return HttpResponse{200, plain_content_type, "ok " + r.path + "\n"};
  });
}

using test::both_schemes;

std::unique_ptr<HttpServer> serve_echo(int max_body_bytes) {
  HttpServerConfig config;
  config.max_body_bytes = max_body_bytes;
  std::vector<HttpRoute> routes;
  routes.push_back(test::route(
      "/echo", [](const HttpRequest& r) { return plain_response(200, r.method + ":" + r.body); }, "echo"));
  routes.back().post = true;
  routes.push_back(test::route(
      "/get", [](const HttpRequest&) { return plain_response(200, "got"); }, "get"));
  std::string error;
  auto s = HttpServer::start(config, std::move(routes), error);
  EXPECT_TRUE(s) << error;
  return s;
}

std::unique_ptr<HttpServer> serve_metrics() {
  std::string error;
  auto server = HttpServer::start(
      HttpServerConfig{},
      {test::route("/metrics",
                   [](const HttpRequest& r) {
                     return HttpResponse{200, plain_content_type, "q=" + query_param(r.query, "format") + "\n"};
                   })},
      error);
  EXPECT_TRUE(server) << error;
  return server;
}

TEST(HttpServer, PortZeroPicksAFreePortAndServesRoutes) {
  auto s = serve({route("/hello", [](const HttpRequest& r) {
    return HttpResponse{200, "text/plain", "hi " + query_param(r.query, "who")};
  })});
  ASSERT_TRUE(s);
  ASSERT_GT(s->port(), 0);
  auto r = http_get(s->port(), "/hello?who=me&x=1");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "hi me");
  EXPECT_NE(r.headers.find("Content-Length: 5"), std::string::npos);
}

TEST(HttpServer, UnknownPathIs404AndListsEndpoints) {
  auto s = serve({route("/metrics", [](const HttpRequest&) { return HttpResponse{}; })});
  auto r = http_get(s->port(), "/nope");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("/metrics"), std::string::npos);
  EXPECT_EQ(http_get(s->port(), "/metrics/extra").status, 404);
}

TEST(HttpServer, OnlyGetAndHead) {
  auto s = serve({route("/m", [](const HttpRequest&) { return HttpResponse{200, "text/plain", "body"}; })});
  auto post = http_raw(s->port(), "POST /m HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(post.status, 405);
  auto head = http_raw(s->port(), "HEAD /m HTTP/1.0\r\n\r\n");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
}

TEST(HttpServer, SurvivesHostileRequests) {
  auto s = serve({route("/m", [](const HttpRequest&) { return HttpResponse{200, "text/plain", "ok"}; })});
  http_raw(s->port(), "GARBAGE\r\n\r\n", std::chrono::seconds(2));
  http_raw(s->port(), "GET /" + std::string(100000, 'a') + " HTTP/1.0\r\n\r\n", std::chrono::seconds(2));
  http_raw(s->port(), "GET /m?%s%s%n%n HTTP/1.0\r\n\r\n", std::chrono::seconds(2));
  EXPECT_EQ(http_get(s->port(), "/m").body, "ok");  // still serving
}

TEST(HttpServer, HandlerExceptionsBecome500) {
  auto s = serve({route("/t", [](const HttpRequest&) -> HttpResponse { throw std::runtime_error("x"); })});
  EXPECT_EQ(http_get(s->port(), "/t").status, 500);
}

TEST(HttpServer, BusyPortIsAClearError) {
  auto first = serve(std::vector<HttpRoute>{});
  std::string error;
  auto second = HttpServer::start("127.0.0.1", first->port(), {}, error);
  EXPECT_FALSE(second);
  EXPECT_NE(error.find("cannot listen on 127.0.0.1:" + std::to_string(first->port())), std::string::npos) << error;
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

// A path, query and headers full of directives and line breaks: the answer
// is our own 404 (no request byte in it) and no header is injected.
TEST(UntrustedInput, RequestBytesAreNeverEchoedOrFormatted) {
  auto server = serve_metrics();
  for (const std::string path :
       {"/%s%s%s%n%n", "/metrics%0d%0aX-Injected:%20yes", "/metrics/../%x%x%x%p", "/\x7f\x01%ff%00"}) {
    auto r = http_raw(server->port(), "GET " + path + " HTTP/1.1\r\nHost: %n%n\r\nX-Test: %s%s\r\n\r\n");
    EXPECT_TRUE(r.status == 404 || r.status == 400) << path << ": " << r.status;
    EXPECT_EQ(r.body.find('%'), std::string::npos) << path << " echoed: " << r.body;
    EXPECT_EQ(r.headers.find("X-Injected"), std::string::npos) << r.headers;
  }
  // A query value reaches a handler as bytes, never as a format.
  auto q = http_raw(server->port(), "GET /metrics?format=%25s%25n&x=%n HTTP/1.1\r\n\r\n");
  EXPECT_EQ(q.status, 200);
  EXPECT_EQ(q.body, "q=%25s%25n\n");  // raw: the handler decides what it accepts
  // And the server serves on.
  EXPECT_EQ(http_raw(server->port(), "GET /metrics HTTP/1.0\r\n\r\n").status, 200);
}

// A request the server cannot parse gets a status line of the server's own,
// never one echoing the request's version token (http_server_fuzz too).
TEST(UntrustedInput, UnparsableRequestsGetOurOwnStatusLine) {
  auto server = serve_metrics();
  for (const std::string request :
       {"GET / HTTPevil text %s\r\n\r\n", "GET /metrics HTTP/9.9\r\n\r\n", "HEAD / HTTP/1.1%00x HTTP/1. y\r\n\r\n"}) {
    auto r = http_raw(server->port(), request);
    EXPECT_TRUE(r.headers.rfind("HTTP/1.1 400 Bad Request\r\n", 0) == 0 ||
                r.headers.rfind("HTTP/1.1 505 HTTP Version Not Supported\r\n", 0) == 0)
        << request << " -> " << r.headers;
    EXPECT_EQ(r.headers.find("evil"), std::string::npos);
    EXPECT_EQ(r.headers.find("9.9"), std::string::npos);
    EXPECT_NE(r.headers.find("Content-Length: "), std::string::npos);
  }
}

TEST(DetailAccess, LocalOnlyRouteRefusesRemoteClients) {
  std::atomic<int> dumps{0};
  auto route = text_route("/threads", &dumps);
  route.local_only = true;
  auto s = serve(only_127_0_0_1_is_local(), {route, text_route("/metrics")});
  ASSERT_TRUE(s);
  std::string remote = get_from("127.0.0.2", s->port(), "/threads");
  EXPECT_EQ(status_of(remote), 403) << remote;
  EXPECT_NE(remote.find("served only to clients on this machine"), std::string::npos) << remote;
  EXPECT_EQ(dumps.load(), 0) << "a refused client still cost a dump";
  EXPECT_EQ(status_of(get_from("127.0.0.2", s->port(), "/metrics")), 200);  // metrics are for everyone
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/threads")), 200);
  EXPECT_EQ(dumps.load(), 1);
}

TEST(DetailAccess, RemoteClientsShareOneDumpPerIntervalAcrossRoutes) {
  std::atomic<int> dumps{0};
  auto limit = std::make_shared<DumpRateLimit>(1h);  // the next one never comes in this test
  auto threads = text_route("/threads", &dumps);
  auto deadlocks = text_route("/deadlocks", &dumps);
  threads.remote_rate_limit = deadlocks.remote_rate_limit = limit;
  auto s = serve(only_127_0_0_1_is_local(), {threads, deadlocks});
  ASSERT_TRUE(s);
  EXPECT_EQ(status_of(get_from("127.0.0.2", s->port(), "/threads")), 200);
  std::string second = get_from("127.0.0.3", s->port(), "/deadlocks");  // another client, another route
  EXPECT_EQ(status_of(second), 429) << second;
  EXPECT_NE(second.find("Retry-After: 1\r\n"), std::string::npos) << second;
  EXPECT_EQ(dumps.load(), 1);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/threads")), 200);  // local
  EXPECT_EQ(dumps.load(), 4);
}

TEST(Credentials, BasicAuthGuardsEveryEndpoint) {
  test::TempDir dir;
  HttpServerConfig config;
  std::string warning;
  ASSERT_EQ(read_credentials(test::write_secret(dir, "users", "# scrapers\nprometheus:s3cret:with:colons\n\nops:pw\n"),
                             "", config.credentials, warning),
            "");
  EXPECT_EQ(warning, "");
  auto s = serve(config, {text_route("/metrics")});
  ASSERT_TRUE(s);
  for (const char* path : {"/metrics", "/", "/nope"}) {
    std::string denied = get_from("127.0.0.1", s->port(), path);
    EXPECT_EQ(status_of(denied), 401) << path << "\n" << denied;
    EXPECT_NE(denied.find("WWW-Authenticate: Basic realm=\"jvmsight\""), std::string::npos) << denied;
  }
  auto with = [&](const std::string& user_password) {
    return status_of(
        get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Basic " + base64(user_password) + "\r\n"));
  };
  EXPECT_EQ(with("prometheus:s3cret:with:colons"), 200);
  EXPECT_EQ(with("ops:pw"), 200);
  EXPECT_EQ(with("ops:pw2"), 401);
  EXPECT_EQ(with("ops:p"), 401);
  EXPECT_EQ(with("prometheus:pw"), 401);
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer pw\r\n")), 401);
}

TEST(Credentials, BearerTokenGuardsEveryEndpoint) {
  test::TempDir dir;
  HttpServerConfig config;
  std::string warning;
  ASSERT_EQ(read_credentials("", test::write_secret(dir, "token", "abc.DEF-123\n"), config.credentials, warning), "");
  auto s = serve(config, {text_route("/metrics")});
  ASSERT_TRUE(s);
  std::string denied = get_from("127.0.0.1", s->port(), "/metrics");
  EXPECT_EQ(status_of(denied), 401);
  EXPECT_NE(denied.find("WWW-Authenticate: Bearer realm=\"jvmsight\""), std::string::npos) << denied;
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer abc.DEF-123\r\n")), 200);
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer abc.DEF-12\r\n")), 401);
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer abc.DEF-1234\r\n")), 401);
}

TEST(HttpProtocol, UnauthorizedNamesEverySchemeAccepted) {
  test::TempDir dir;
  HttpServerConfig config;
  config.credentials = both_schemes(dir);
  auto s = serve(config, {ok_route("/metrics")});
  ASSERT_TRUE(s);
  auto denied = http_raw(s->port(), "GET /metrics HTTP/1.0\r\n\r\n");
  EXPECT_EQ(denied.status, 401);
  EXPECT_NE(denied.headers.find("\r\nWWW-Authenticate: Basic realm=\"jvmsight\""), std::string::npos) << denied.headers;
  EXPECT_NE(denied.headers.find("\r\nWWW-Authenticate: Bearer realm=\"jvmsight\""), std::string::npos)
      << denied.headers;
  EXPECT_EQ(http_raw(s->port(), "GET /metrics HTTP/1.0\r\nAuthorization: bearer t0k\r\n\r\n").status, 200);
  // curl answers the challenge with the scheme it offers: both work.
  const std::string url = "http://127.0.0.1:" + std::to_string(s->port()) + "/metrics";
  EXPECT_EQ(test::curl({"-f", "-u", "prom:pw", url}).out, "ok /metrics\n");
  EXPECT_EQ(test::curl({"-f", "--oauth2-bearer", "t0k", url}).out, "ok /metrics\n");
}

TEST(HttpProtocol, AbsoluteFormTargetsAreServed) {
  RequestHead r;
  ASSERT_EQ(parse_request_head("GET http://pod:9404/metrics?a=b HTTP/1.1\r\n\r\n", r), 0);
  EXPECT_EQ(r.path, "/metrics");
  EXPECT_EQ(r.query, "a=b");
  ASSERT_EQ(parse_request_head("GET HTTPS://pod?x=1 HTTP/1.1\r\n\r\n", r), 0);
  EXPECT_EQ(r.path, "/");
  EXPECT_EQ(r.query, "x=1");
  for (const char* bad : {"GET http:///metrics HTTP/1.1\r\n\r\n", "GET ftp://h/metrics HTTP/1.1\r\n\r\n",
                          "GET http://h#f HTTP/1.1\r\n\r\n", "GET pod:9404/metrics HTTP/1.1\r\n\r\n"})
    EXPECT_EQ(parse_request_head(bad, r), 400) << bad;
  // curl talking to the server as to a proxy sends the absolute form.
  auto s = serve(HttpServerConfig{}, {ok_route("/metrics")});
  ASSERT_TRUE(s);
  auto proxied =
      test::curl({"-f", "-x", "http://127.0.0.1:" + std::to_string(s->port()), "http://pod.invalid/metrics"});
  EXPECT_EQ(proxied.exit_code, 0) << proxied.err;
  EXPECT_EQ(proxied.out, "ok /metrics\n");
}

TEST(HttpProtocol, Ipv6HostsAreWrittenInBrackets) {
  EXPECT_EQ(host_port("::1", 9404), "[::1]:9404");
  EXPECT_EQ(host_port("0.0.0.0", 9404), "0.0.0.0:9404");
  std::string error;
  HttpServerConfig config;
  config.host = "::1";
  auto first = HttpServer::start(config, {}, error);
  if (!first) GTEST_SKIP() << "no IPv6 loopback here: " << error;
  config.port = first->port();
  EXPECT_FALSE(HttpServer::start(config, {}, error));
  EXPECT_NE(error.find("cannot listen on [::1]:" + std::to_string(first->port()) + ": "), std::string::npos) << error;
}

}  // namespace
}  // namespace jvmsight
