// The exporter's HTTP server over real loopback sockets: port 0, routing,
// methods, hostile requests and a busy port.
#include "exporters/http/http_server.h"

#include <gtest/gtest.h>

#include "exporters/prometheus/metrics_endpoint.h"
#include "tests/harness/http_client.h"

namespace jvmsight {
namespace {

using test::http_get;
using test::http_raw;

std::unique_ptr<HttpServer> serve(std::vector<HttpRoute> routes, int port = 0) {
  std::string error;
  auto s = HttpServer::start("127.0.0.1", port, std::move(routes), error);
  EXPECT_TRUE(s) << error;
  return s;
}

TEST(HttpServer, PortZeroPicksAFreePortAndServesRoutes) {
  auto s = serve({{"/hello", [](const HttpRequest& r) {
                     return HttpResponse{200, "text/plain", "hi " + query_param(r.query, "who")};
                   }}});
  ASSERT_TRUE(s);
  ASSERT_GT(s->port(), 0);
  auto r = http_get(s->port(), "/hello?who=me&x=1");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.body, "hi me");
  EXPECT_NE(r.headers.find("Content-Length: 5"), std::string::npos);
}

TEST(HttpServer, UnknownPathIs404AndListsEndpoints) {
  auto s = serve({{"/metrics", [](const HttpRequest&) { return HttpResponse{}; }}});
  auto r = http_get(s->port(), "/nope");
  EXPECT_EQ(r.status, 404);
  EXPECT_NE(r.body.find("/metrics"), std::string::npos);
  EXPECT_EQ(http_get(s->port(), "/metrics/extra").status, 404);
}

TEST(HttpServer, OnlyGetAndHead) {
  auto s = serve({{"/m", [](const HttpRequest&) { return HttpResponse{200, "text/plain", "body"}; }}});
  auto post = http_raw(s->port(), "POST /m HTTP/1.0\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(post.status, 405);
  auto head = http_raw(s->port(), "HEAD /m HTTP/1.0\r\n\r\n");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.body, "");
}

TEST(HttpServer, SurvivesHostileRequests) {
  auto s = serve({{"/m", [](const HttpRequest&) { return HttpResponse{200, "text/plain", "ok"}; }}});
  http_raw(s->port(), "GARBAGE\r\n\r\n", std::chrono::seconds(2));
  http_raw(s->port(), "GET /" + std::string(100000, 'a') + " HTTP/1.0\r\n\r\n", std::chrono::seconds(2));
  http_raw(s->port(), "GET /m?%s%s%n%n HTTP/1.0\r\n\r\n", std::chrono::seconds(2));
  EXPECT_EQ(http_get(s->port(), "/m").body, "ok");  // still serving
}

TEST(HttpServer, HandlerExceptionsBecome500) {
  auto s = serve({{"/t", [](const HttpRequest&) -> HttpResponse { throw std::runtime_error("x"); }}});
  EXPECT_EQ(http_get(s->port(), "/t").status, 500);
}

TEST(HttpServer, BusyPortIsAClearError) {
  auto first = serve({});
  std::string error;
  auto second = HttpServer::start("127.0.0.1", first->port(), {}, error);
  EXPECT_FALSE(second);
  EXPECT_NE(error.find("cannot listen on 127.0.0.1:" + std::to_string(first->port())), std::string::npos) << error;
}

TEST(MetricsEndpoint, UnavailableSnapshotIs503NotZeros) {
  auto s = serve({metrics_endpoint([] { return std::optional<MetricFamilies>(); })});
  EXPECT_EQ(http_get(s->port(), "/metrics").status, 503);
}

TEST(MetricsEndpoint, ServesTextFormat) {
  auto s = serve({metrics_endpoint([] {
    MetricFamilies f;
    add_sample(add_uncatalogued_family(f, "up_like", MetricType::gauge, "h"), 1);
    return std::optional<MetricFamilies>(f);
  })});
  auto r = http_get(s->port(), "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(r.body.find("up_like 1"), std::string::npos);
}

}  // namespace
}  // namespace jvmsight
