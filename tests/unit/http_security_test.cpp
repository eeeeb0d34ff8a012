// The server's defences against real loopback clients: detail endpoints for
// local clients only or rate-limited, credentials from files, request size
// and slow-client limits.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include "exporters/http/access.h"
#include "exporters/http/http_server.h"
#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"

namespace jvmsight {
namespace {

using namespace std::chrono_literals;

// A client socket connected from source_ip (127.0.0.2 is loopback to the
// kernel, but a server that counts only 127.0.0.1 as local sees a remote).
int connect_from(const char* source_ip, int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in src{};
  src.sin_family = AF_INET;
  inet_pton(AF_INET, source_ip, &src.sin_addr);
  if (bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof(src)) != 0) {
    close(fd);
    return -1;
  }
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(static_cast<uint16_t>(port));
  dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Reads until the server closes or the deadline passes; "" on timeout.
std::string read_all(int fd, std::chrono::milliseconds timeout, bool* closed = nullptr) {
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    char buf[4096];
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n <= 0) {
      if (closed) *closed = true;
      break;
    }
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

std::string request_from(const char* source_ip, int port, const std::string& request) {
  int fd = connect_from(source_ip, port);
  if (fd < 0) return "";
  send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string answer = read_all(fd, 5s);
  close(fd);
  return answer;
}

int status_of(const std::string& answer) {
  return answer.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(answer.c_str() + 9) : 0;
}

std::string get_from(const char* source_ip, int port, const std::string& path, const std::string& headers = "") {
  return request_from(source_ip, port, "GET " + path + " HTTP/1.0\r\n" + headers + "\r\n");
}

HttpRoute text_route(const std::string& path, std::atomic<int>* calls = nullptr) {
  return {path, [calls](const HttpRequest&) {
            if (calls) ++*calls;
            return HttpResponse{200, plain_content_type, "dump\n"};
          }};
}

HttpServerConfig only_127_0_0_1_is_local() {
  HttpServerConfig c;
  c.is_local = [](const std::string& addr) { return addr == "127.0.0.1"; };
  return c;
}

std::unique_ptr<HttpServer> serve(HttpServerConfig config, std::vector<HttpRoute> routes) {
  std::string error;
  auto s = HttpServer::start(std::move(config), std::move(routes), error);
  EXPECT_TRUE(s) << error;
  return s;
}

TEST(LoopbackAddress, OnlyLoopbackForms) {
  for (const char* a : {"127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"}) EXPECT_TRUE(is_loopback_address(a)) << a;
  for (const char* a : {"10.0.0.1", "192.168.1.127", "::", "::ffff:10.0.0.1", "1270.0.0.1", "", "fe80::1"})
    EXPECT_FALSE(is_loopback_address(a)) << a;
}

TEST(DumpRateLimit, OneAnswerPerIntervalWithAFakeClock) {
  int64_t now = 5'000'000'000;
  DumpRateLimit limit(1s, [&] { return now; });
  EXPECT_TRUE(limit.try_acquire());
  EXPECT_FALSE(limit.try_acquire());
  now += 999'999'999;
  EXPECT_FALSE(limit.try_acquire());
  now += 1;
  EXPECT_TRUE(limit.try_acquire());
  EXPECT_FALSE(limit.try_acquire());
}

TEST(DumpRateLimit, ConcurrentClientsGetExactlyOne) {
  DumpRateLimit limit(1s, [] { return int64_t{42}; });
  std::atomic<int> granted{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10000; ++i) granted += limit.try_acquire();
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(granted.load(), 1);
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

std::string write_secret(const test::TempDir& dir, const std::string& name, const std::string& text,
                         mode_t mode = 0600) {
  std::string path = dir.path(name);
  std::ofstream(path) << text;
  chmod(path.c_str(), mode);
  return path;
}

TEST(Credentials, BasicAuthGuardsEveryEndpoint) {
  test::TempDir dir;
  HttpServerConfig config;
  std::string warning;
  ASSERT_EQ(read_credentials(write_secret(dir, "users", "# scrapers\nprometheus:s3cret:with:colons\n\nops:pw\n"), "",
                             config.credentials, warning),
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
  ASSERT_EQ(read_credentials("", write_secret(dir, "token", "abc.DEF-123\n"), config.credentials, warning), "");
  auto s = serve(config, {text_route("/metrics")});
  ASSERT_TRUE(s);
  std::string denied = get_from("127.0.0.1", s->port(), "/metrics");
  EXPECT_EQ(status_of(denied), 401);
  EXPECT_NE(denied.find("WWW-Authenticate: Bearer realm=\"jvmsight\""), std::string::npos) << denied;
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer abc.DEF-123\r\n")), 200);
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer abc.DEF-12\r\n")), 401);
  EXPECT_EQ(status_of(get_from("127.0.0.1", s->port(), "/metrics", "Authorization: Bearer abc.DEF-1234\r\n")), 401);
}

TEST(Credentials, FileProblemsAreNamedWithoutEchoingSecrets) {
  test::TempDir dir;
  Credentials c;
  std::string warning;
  std::string missing = read_credentials(dir.path("none"), "", c, warning);
  EXPECT_NE(missing.find("cannot read basic_auth_file '" + dir.path("none") + "': No such file or directory"),
            std::string::npos)
      << missing;
  std::string bad = read_credentials(write_secret(dir, "bad", "opsTopSecretNoColon\n"), "", c, warning);
  EXPECT_NE(bad.find("entry 1 is not user:password"), std::string::npos) << bad;
  EXPECT_EQ(bad.find("TopSecret"), std::string::npos) << "the error echoed a password: " << bad;
  EXPECT_NE(read_credentials(write_secret(dir, "empty", "# nothing\n\n"), "", c, warning).find("holds no credentials"),
            std::string::npos);
  EXPECT_NE(read_credentials("", write_secret(dir, "two", "a\nb\n"), c, warning).find("exactly one token"),
            std::string::npos);
  EXPECT_NE(read_credentials("", dir.path(""), c, warning).find("not a regular file"), std::string::npos);
  warning.clear();
  EXPECT_EQ(read_credentials(write_secret(dir, "open", "u:p\n", 0644), "", c, warning), "");
  EXPECT_NE(warning.find("readable by other users"), std::string::npos) << warning;
}

TEST(Base64, KnownVectors) {
  EXPECT_EQ(base64(""), "");
  EXPECT_EQ(base64("f"), "Zg==");
  EXPECT_EQ(base64("fo"), "Zm8=");
  EXPECT_EQ(base64("foo"), "Zm9v");
  EXPECT_EQ(base64("Aladdin:open sesame"), "QWxhZGRpbjpvcGVuIHNlc2FtZQ==");
}

TEST(RequestLimits, OversizedHeadersAreRefusedAndTheServerServesOn) {
  auto s = serve(HttpServerConfig{}, {text_route("/m")});
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
  auto s = serve(config, {text_route("/m")});
  ASSERT_TRUE(s);
  // Two clients take both connection slots and trickle a request that never ends.
  int slow[2];
  for (int& fd : slow) {
    fd = connect_from("127.0.0.1", s->port());
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
    read_all(fd, 3s, &closed);
    EXPECT_TRUE(closed) << "a slow client kept its connection";
    close(fd);
  }
}

}  // namespace
}  // namespace jvmsight
