// Scrapers always get through: 1,000 hostile connections from one address
// (silent, trickling, half a request head, stalled TLS handshakes; each
// reconnecting as soon as the server drops it) against the real server,
// while a scraper from another address must get every answer within
// Prometheus' default 10 s scrape timeout. From the scraper's own address,
// the server must serve again within seconds of the load ending.
// docs/SECURITY.md says why it holds (the slot policy).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "exporters/http/http_server.h"
#include "exporters/pprof/pprof_endpoint.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "tests/harness/endpoints.h"
#include "tests/harness/http_client.h"
#include "tests/harness/test_ca.h"
#include "tests/hostile/attacker.h"

namespace jvmsight::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr int hostile_connections = 1000;

// An empty profile, served as /debug/pprof/mutex does (?seconds=N waits).
class EmptyProfile : public ProfileSource {
 public:
  std::optional<ContentionProfile> snapshot() override { return ContentionProfile{}; }
};

std::vector<HttpRoute> metrics_routes() {
  static MetricsFrom metrics([] {
    MetricFamilies f;
    add_sample(add_uncatalogued_family(f, "jvmsight_up_like", MetricType::gauge, "h"), 1);
    return std::optional<MetricFamilies>(f);
  });
  return {metrics_endpoint(metrics),
          profile_route("/debug/pprof/mutex", "profile", "mutex", std::make_shared<EmptyProfile>())};
}

std::unique_ptr<HttpServer> serve(HttpServerConfig config) {
  std::string error;
  auto s = HttpServer::start(std::move(config), metrics_routes(), error);
  EXPECT_TRUE(s) << error;
  return s;
}

// Scrapes with `scrape` (true: a 200 with the sample) every half second for
// `how_long`; each must succeed within 10 s.
template <class Scrape>
void scrape_through(Scrape scrape, std::chrono::seconds how_long, const Attacker& attacker) {
  const auto end = Clock::now() + how_long;
  int scrapes = 0;
  Clock::duration slowest{};
  while (Clock::now() < end) {
    const auto start = Clock::now();
    const bool ok = scrape();
    const auto took = Clock::now() - start;
    slowest = std::max(slowest, took);
    ++scrapes;
    EXPECT_TRUE(ok) << "scrape " << scrapes << " failed after "
                    << std::chrono::duration_cast<std::chrono::milliseconds>(took).count() << " ms";
    EXPECT_LT(took, 10s) << "scrape " << scrapes;
    std::this_thread::sleep_for(500ms);
  }
  std::printf("%d scrapes, slowest %lld ms; attacker: %ld connects, %ld dropped by the server, %ld open\n", scrapes,
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count()),
              attacker.connects(), attacker.dropped(), attacker.open_now());
  EXPECT_GE(attacker.connects(), hostile_connections) << "the attack never got going";
}

bool plain_scrape(int port) {
  auto r = http_get(port, "/metrics", "127.0.0.1", 10s);
  return r.status == 200 && r.body.find("jvmsight_up_like 1") != std::string::npos;
}

class HostileClients : public ::testing::Test {
 protected:
  void SetUp() override {
    if (raise_fd_limit(4096) < 2200) GTEST_SKIP() << "too few file descriptors for 1,000 clients";
  }
};

TEST_F(HostileClients, ScrapesFromAnotherAddressGetThroughPlainHttp) {
  auto s = serve(HttpServerConfig{});
  ASSERT_TRUE(s);
  Attacker attacker("127.0.0.2", s->port(), hostile_connections,
                    {Harm::silent, Harm::silent, Harm::trickle, Harm::partial_head});
  std::this_thread::sleep_for(1s);  // every slot taken before the first scrape
  scrape_through([&] { return plain_scrape(s->port()); }, 14s, attacker);
  EXPECT_GT(attacker.dropped(), 0) << "the server never had to choose whom to drop";
}

// Profile deltas (?seconds=300) are answered from the loop's timer, never
// by holding its thread; a client holding as many as it can is one more
// greedy address to the slot policy.
TEST_F(HostileClients, ScrapesFromAnotherAddressGetThroughHeldProfileDeltas) {
  auto s = serve(HttpServerConfig{});
  ASSERT_TRUE(s);
  Attacker attacker("127.0.0.2", s->port(), hostile_connections, {Harm::profile_hold});
  std::this_thread::sleep_for(1s);
  scrape_through([&] { return plain_scrape(s->port()); }, 8s, attacker);
  EXPECT_GT(attacker.dropped(), 0) << "the server never had to choose whom to drop";
}

TEST_F(HostileClients, ScrapesFromAnotherAddressGetThroughStalledTlsHandshakes) {
  TestCa ca;
  make_test_ca(ca);
  ASSERT_EQ(ca.error, "");
  HttpServerConfig config;
  config.tls.cert_file = ca.server_cert;
  config.tls.key_file = ca.server_key;
  auto s = serve(config);
  ASSERT_TRUE(s);
  Attacker attacker("127.0.0.2", s->port(), hostile_connections, {Harm::tls_stall, Harm::silent, Harm::trickle});
  std::this_thread::sleep_for(1s);
  const std::string url = "https://127.0.0.1:" + std::to_string(s->port()) + "/metrics";
  scrape_through(
      [&] {
        auto r = curl({"--cacert", ca.ca_cert, "--max-time", "10", url});
        return r.exit_code == 0 && r.out.find("jvmsight_up_like 1") != std::string::npos;
      },
      12s, attacker);
}

TEST_F(HostileClients, FromTheScrapersOwnAddressItServesAgainWhenTheLoadEnds) {
  auto s = serve(HttpServerConfig{});
  ASSERT_TRUE(s);
  {
    Attacker attacker("127.0.0.1", s->port(), hostile_connections, {Harm::silent, Harm::trickle, Harm::partial_head});
    std::this_thread::sleep_for(6s);
    EXPECT_GE(attacker.connects(), hostile_connections);
    // Scrapes in the middle of it may or may not get through; the server
    // must not stop either way.
    http_get(s->port(), "/metrics", "127.0.0.1", 2s);
  }
  const auto ended = Clock::now();
  bool served = false;
  while (!served && Clock::now() - ended < 5s) served = plain_scrape(s->port());
  EXPECT_TRUE(served) << "no answer within 5 s of the load ending";
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(plain_scrape(s->port())) << "and it serves on";
}

// Well-behaved clients that reconnect the moment they have their answer (a
// busy scraper, or several) can come round again many times within one turn
// of accepts, before poll reports that their answered connections closed:
// those must not fill the table and push a newcomer out. Every request here
// must be answered.
TEST(PoliteClients, ReconnectingAtOnceNeverCostsAnAnswer) {
  HttpServerConfig config;
  config.max_connections = 8;  // a small table fills within a turn if answered connections linger
  auto s = serve(config);
  ASSERT_TRUE(s);
  std::atomic<int> answered{0}, failed{0};
  std::vector<std::thread> clients;
  for (int i = 0; i < 6; ++i)
    clients.emplace_back([&] {
      for (int n = 0; n < 1500; ++n) (plain_scrape(s->port()) ? answered : failed)++;
    });
  for (auto& c : clients) c.join();
  EXPECT_EQ(failed.load(), 0) << "of " << answered.load() + failed.load() << " requests";
}

}  // namespace
}  // namespace jvmsight::test
