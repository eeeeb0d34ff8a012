// The server loop's limits against greedy and slow clients, over real
// loopback sockets: request heads over 8 KiB refused, slow clients cut off
// at the request timeout without starving others.
#include "exporters/http/server_loop.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "tests/harness/http_client.h"
#include "tests/harness/serve.h"

namespace jvmsight {
namespace {

using namespace std::chrono_literals;
using test::get_from;
using test::serve;
using test::status_of;

HttpRoute dump_route(const std::string& path) {
  return test::route(path, [](const HttpRequest&) { return HttpResponse{200, plain_content_type, "dump\n"}; });
}

TEST(RequestLimits, OversizedHeadersAreRefusedAndTheServerServesOn) {
  auto s = serve(HttpServerConfig{}, {dump_route("/m")});
  ASSERT_TRUE(s);
  // 6 KiB of headers pass; 12 KiB are over the 8 KiB limit.
  std::string fine = get_from("127.0.0.1", s->port(), "/m", "X-Pad: " + std::string(6000, 'a') + "\r\n");
  EXPECT_EQ(status_of(fine), 200) << fine.substr(0, 200);
  std::string big = get_from("127.0.0.1", s->port(), "/m", "X-Pad: " + std::string(12000, 'a') + "\r\n");
  EXPECT_NE(status_of(big), 200) << big.substr(0, 200);
  EXPECT_EQ(test::http_get(s->port(), "/m").body, "dump\n");
}

TEST(RequestLimits, SlowClientsAreCutOffAndCannotStarveTheServer) {
  HttpServerConfig config;
  config.max_connections = 2;
  config.request_timeout_ms = 300;
  auto s = serve(config, {dump_route("/m")});
  ASSERT_TRUE(s);
  // Two clients take both connection slots and trickle a request that never ends.
  int slow[2];
  for (int& fd : slow) {
    fd = test::connect_from("127.0.0.1", s->port());
    ASSERT_GE(fd, 0);
    send(fd, "GET /m HTTP/1.0\r\nX-A: ", 22, MSG_NOSIGNAL);
  }
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 5; ++i) {
    for (int fd : slow) send(fd, "a", 1, MSG_NOSIGNAL);  // keeps each one "active"
    std::this_thread::sleep_for(100ms);
  }
  auto r = test::http_get(s->port(), "/m", "127.0.0.1", 5s);
  EXPECT_EQ(r.body, "dump\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, 4s);
  for (int fd : slow) {
    bool closed = false;
    test::read_all(fd, 3s, &closed);
    EXPECT_TRUE(closed) << "a slow client kept its connection";
    close(fd);
  }
}

}  // namespace
}  // namespace jvmsight
