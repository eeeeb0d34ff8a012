// The profile routes on the real server: ?seconds=N answered later from the
// loop (other requests meanwhile answered at once; HEAD and TLS too), bad
// queries a 400 of one line, no snapshot a 503, and profile_delta's
// arithmetic.
#include "exporters/pprof/pprof_endpoint.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "tests/harness/endpoints.h"
#include "tests/harness/http_client.h"
#include "tests/harness/test_ca.h"

namespace jvmsight {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// One stack whose totals grow by 10 waits and 1 s of delay per snapshot.
class GrowingProfile : public ProfileSource {
 public:
  std::optional<ContentionProfile> snapshot() override {
    if (fail) return std::nullopt;
    const int64_t n = ++taken;
    ContentionProfile p;
    p.functions = {{"a.B.c", "B.java"}};
    p.stacks = {{7, {{0, 3}}, 10 * n, 1'000'000'000 * n}};
    p.time_ns = 1'000;
    p.duration_ns = n * 5'000'000'000;
    return p;
  }
  std::atomic<int> taken{0};
  std::atomic<bool> fail{false};
};

struct Served {
  std::shared_ptr<GrowingProfile> source = std::make_shared<GrowingProfile>();
  std::unique_ptr<HttpServer> server;
  Served() {
    std::vector<HttpRoute> routes{
        profile_route("/debug/pprof/mutex", "m", "mutex", source),
        test::route(
            "/quick", [](const HttpRequest&) { return plain_response(200, "quick\n"); }, "q")};
    std::string error;
    server = HttpServer::start("127.0.0.1", 0, std::move(routes), error);
    EXPECT_TRUE(server) << error;
  }
  int port() const { return server->port(); }
};

TEST(ProfileDelta, TheDifferenceOfTwoSnapshotsOverTheirWindow) {
  GrowingProfile g;
  ContentionProfile start = *g.snapshot();
  ContentionProfile end = *g.snapshot();
  end.stacks.push_back({9, {{0, 4}}, 2, 20});  // new since start
  end.stacks.push_back({start.stacks[0]});     // unchanged copy under another id
  end.stacks.back().id = 11;
  start.stacks.push_back(end.stacks.back());
  ContentionProfile d = profile_delta(end, start);
  ASSERT_EQ(d.stacks.size(), 2u);
  EXPECT_EQ(d.stacks[0].id, 7u);
  EXPECT_EQ(d.stacks[0].contentions, 10);
  EXPECT_EQ(d.stacks[0].delay_ns, 1'000'000'000);
  EXPECT_EQ(d.stacks[1].id, 9u);
  EXPECT_EQ(d.time_ns, 1'000 + 5'000'000'000);
  EXPECT_EQ(d.duration_ns, 5'000'000'000);
}

TEST(ProfileEndpoint, SecondsAnswersTheDeltaLaterWithoutHoldingTheServer) {
  Served s;
  const auto asked = Clock::now();
  test::HttpResult delta;
  std::thread client([&] { delta = test::http_get(s.port(), "/debug/pprof/mutex?seconds=2&debug=1"); });
  std::this_thread::sleep_for(300ms);
  const auto quick_asked = Clock::now();
  auto quick = test::http_get(s.port(), "/quick");
  EXPECT_EQ(quick.status, 200);
  EXPECT_LT(Clock::now() - quick_asked, 1s) << "the delta held the server's thread";
  client.join();
  const auto took = Clock::now() - asked;
  EXPECT_GE(took, 2s);
  EXPECT_LT(took, 4s);
  EXPECT_EQ(delta.status, 200);
  // One snapshot at the request, one when the time was up: 10 waits, 1 s.
  EXPECT_EQ(s.source->taken.load(), 2);
  EXPECT_NE(delta.body.find("1 stacks, 10 waits, 1.000 s waited over 5.0 s"), std::string::npos) << delta.body;
}

TEST(ProfileEndpoint, AHeadRequestOnADeltaGetsItsHeadLaterAndNoBody) {
  Served s;
  const auto asked = Clock::now();
  auto r = test::http_raw(s.port(), "HEAD /debug/pprof/mutex?seconds=1&debug=1 HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_GE(Clock::now() - asked, 1s);
  EXPECT_EQ(r.status, 200) << r.headers;
  EXPECT_EQ(r.body, "");
  EXPECT_EQ(s.source->taken.load(), 2);
}

// The deferred answer goes out through the connection's TLS session, read
// by curl trusting only the test's CA.
TEST(ProfileEndpoint, ADeltaOverTlsIsAnsweredLater) {
  test::TestCa ca;
  test::make_test_ca(ca);
  ASSERT_EQ(ca.error, "");
  auto source = std::make_shared<GrowingProfile>();
  HttpServerConfig config;
  config.tls.cert_file = ca.server_cert;
  config.tls.key_file = ca.server_key;
  std::string error;
  auto server = HttpServer::start(config, {profile_route("/debug/pprof/mutex", "m", "mutex", source)}, error);
  ASSERT_TRUE(server) << error;
  const auto asked = Clock::now();
  auto r = test::curl({"--cacert", ca.ca_cert,
                       "https://127.0.0.1:" + std::to_string(server->port()) + "/debug/pprof/mutex?seconds=1&debug=1"});
  EXPECT_GE(Clock::now() - asked, 1s);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("1 stacks, 10 waits, 1.000 s waited over 5.0 s"), std::string::npos) << r.out;
}

TEST(ProfileEndpoint, TotalsAreGzippedProfileBytes) {
  Served s;
  auto r = test::http_get(s.port(), "/debug/pprof/mutex");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("application/octet-stream"), std::string::npos) << r.headers;
  ASSERT_GE(r.body.size(), 2u);
  EXPECT_EQ(r.body.substr(0, 2), "\x1f\x8b");
}

TEST(ProfileEndpoint, BadQueriesAreA400OfOneLineAtOnce) {
  Served s;
  for (const char* q : {"?seconds=0", "?seconds=301", "?seconds=abc", "?debug=7"}) {
    const auto asked = Clock::now();
    auto r = test::http_get(s.port(), std::string("/debug/pprof/mutex") + q);
    EXPECT_EQ(r.status, 400) << q;
    EXPECT_EQ(std::count(r.body.begin(), r.body.end(), '\n'), 1) << q << ": " << r.body;
    EXPECT_LT(Clock::now() - asked, 1s) << q;
  }
  EXPECT_EQ(s.source->taken.load(), 0);
}

TEST(ProfileEndpoint, NoSnapshotIs503NowAndLater) {
  Served s;
  s.source->fail = true;
  EXPECT_EQ(test::http_get(s.port(), "/debug/pprof/mutex").status, 503);
  s.source->fail = false;
  std::thread failer([&] {
    std::this_thread::sleep_for(300ms);
    s.source->fail = true;
  });
  EXPECT_EQ(test::http_get(s.port(), "/debug/pprof/mutex?seconds=1").status, 503);
  failer.join();
}

TEST(ProfileEndpoint, AClientGoneBeforeTheAnswerCostsNothing) {
  Served s;
  auto gone = test::http_get(s.port(), "/debug/pprof/mutex?seconds=2", "127.0.0.1", 200ms);
  EXPECT_EQ(gone.status, 0);
  std::this_thread::sleep_for(2500ms);
  EXPECT_EQ(test::http_get(s.port(), "/quick").status, 200);
}

}  // namespace
}  // namespace jvmsight
