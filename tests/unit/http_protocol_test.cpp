// Where the server follows the RFCs beyond the basics, checked with real
// clients where one exists: the auth scheme in any case (RFC 9110 11.1),
// a 401 naming every accepted scheme (RFC 9110 11.6.1), absolute-form
// request targets (RFC 9112 3.2.2; curl sends them to a proxy), /gc's
// one format, IPv6 hosts in brackets; and the slot policy and CPU budget
// that keep a scraper in (docs/SECURITY.md).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "exporters/http/access.h"
#include "exporters/http/cpu_budget.h"
#include "exporters/http/http_request.h"
#include "exporters/http/http_server.h"
#include "exporters/http/slot_policy.h"
#include "exporters/reports/report_endpoints.h"
#include "tests/harness/http_client.h"
#include "tests/harness/test_ca.h"

namespace jvmsight {
namespace {

using test::http_raw;

HttpRoute ok_route(const std::string& path) {
  return {path, [](const HttpRequest& r) { return HttpResponse{200, plain_content_type, "ok " + r.path + "\n"}; }, ""};
}

std::unique_ptr<HttpServer> serve(HttpServerConfig config, std::vector<HttpRoute> routes) {
  std::string error;
  auto s = HttpServer::start(std::move(config), std::move(routes), error);
  EXPECT_TRUE(s) << error;
  return s;
}

Credentials both_schemes(const test::TempDir& dir) {
  std::ofstream(dir.path("users")) << "prom:pw\n";
  std::ofstream(dir.path("token")) << "t0k\n";
  chmod(dir.path("users").c_str(), 0600);
  chmod(dir.path("token").c_str(), 0600);
  Credentials c;
  std::string warning;
  EXPECT_EQ(read_credentials(dir.path("users"), dir.path("token"), c, warning), "");
  return c;
}

TEST(HttpProtocol, AuthSchemeIsCaseInsensitiveTheCredentialsAreNot) {
  test::TempDir dir;
  Credentials c = both_schemes(dir);
  const std::string basic = base64("prom:pw");
  for (std::string scheme : {"Basic", "basic", "BASIC", "bAsIc"}) {
    EXPECT_TRUE(c.accepts((scheme + " " + basic).c_str())) << scheme;
    EXPECT_TRUE(c.accepts((scheme + "  " + basic).c_str())) << scheme << ", two spaces";
  }
  for (const char* ok : {"Bearer t0k", "bearer t0k", "BEARER t0k"}) EXPECT_TRUE(c.accepts(ok)) << ok;
  for (const char* wrong :
       {"Bearer T0K", "bearer t0", "Bearer t0kk", "Bearer", "Bearert0k", "Basic t0k", "Token t0k", ""})
    EXPECT_FALSE(c.accepts(wrong)) << wrong;
  EXPECT_FALSE(c.accepts(("Basic " + base64("PROM:pw")).c_str()));
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

TEST(HttpProtocol, GcIsJsonOnlyAndSaysSo) {
  auto s = serve(HttpServerConfig{}, {gc_endpoint([] { return std::optional<GcReport>(GcReport{}); })});
  ASSERT_TRUE(s);
  for (const char* path : {"/gc", "/gc?format=json"}) {
    auto r = test::http_get(s->port(), path);
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_NE(r.headers.find("application/json"), std::string::npos) << path;
  }
  auto text = test::http_get(s->port(), "/gc?format=text");
  EXPECT_EQ(text.status, 400);
  EXPECT_EQ(text.body, "/gc is served as JSON only; use ?format=json or no format\n");
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

TEST(SlotPolicy, AddressGroups) {
  EXPECT_EQ(address_group("10.1.2.3"), "10.1.2.3");
  EXPECT_EQ(address_group("::ffff:10.1.2.3"), "10.1.2.3");
  // One /64 however inet_ntop shortens the rest.
  EXPECT_EQ(address_group("2001:db8::1"), address_group("2001:db8:0:0:1::"));
  EXPECT_EQ(address_group("2001:db8:0:0:ffff:1:2:3"), "2001:db8::");
  EXPECT_NE(address_group("2001:db8:0:1::1"), address_group("2001:db8::1"));
}

TEST(SlotPolicy, TheBiggestHolderLosesItsOldestUnfinishedSlot) {
  // A scraper (one slot, oldest of all, unfinished) beside a flood.
  std::vector<SlotHolder> slots = {
      {"127.0.0.1", 0, 1}, {"127.0.0.2", 2, 2}, {"127.0.0.2", 0, 5}, {"127.0.0.2", 1, 3}, {"127.0.0.2", 0, 4}};
  EXPECT_EQ(slot_to_free(slots), 4u);  // unfinished before draining and answered ones, oldest first
  slots = {{"127.0.0.1", 0, 1}, {"127.0.0.2", 2, 2}, {"127.0.0.2", 1, 3}};
  EXPECT_EQ(slot_to_free(slots), 2u);  // then the oldest draining
  slots = {{"a", 0, 9}, {"a", 0, 3}, {"a", 0, 7}};
  EXPECT_EQ(slot_to_free(slots), 1u);  // one address: its oldest
}

TEST(CpuBudget, PausesOnlyPastItsShare) {
  CpuBudget budget(25);
  const int64_t ms = 1'000'000;
  EXPECT_EQ(budget.pause_due(0, 1000 * ms).count(), 0);
  // 10 ms of CPU in 100 ms: within 25%.
  EXPECT_EQ(budget.pause_due(10 * ms, 1100 * ms).count(), 0);
  // Then 100 ms of CPU in 100 ms: the 50 ms burst and 25 ms earned cover
  // 75; 25 ms of debt take 100 ms to earn back at 25%.
  auto pause = budget.pause_due(110 * ms, 1200 * ms);
  EXPECT_GE(pause.count(), 100);
  EXPECT_LE(pause.count(), 101);
  // A long busy spell never pauses more than half a second at once.
  EXPECT_EQ(budget.pause_due(10'000 * ms, 1300 * ms).count(), 500);
}

}  // namespace
}  // namespace jvmsight
