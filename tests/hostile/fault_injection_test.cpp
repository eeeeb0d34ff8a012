// The server's thread never stops for good: poll() and accept() made to
// fail through the server's seam (HttpServerConfig::calls), and allocations
// on its thread made to fail (failing_new.h). Each costs a pause and one
// log line, never a spin and never the server; afterwards it serves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "exporters/http/http_server.h"
#include "tests/harness/endpoints.h"
#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"
#include "tests/hostile/failing_new.h"

namespace jvmsight::test {
namespace {

using namespace std::chrono_literals;

std::vector<HttpRoute> routes() {
  return {route("/metrics", [](const HttpRequest&) { return HttpResponse{200, plain_content_type, "up 1\n"}; })};
}

bool serves(int port, std::chrono::milliseconds timeout = 5s) {
  return http_get(port, "/metrics", "127.0.0.1", timeout).body == "up 1\n";
}

// What this process writes to stderr (the agent's log) while it lives.
class StderrCapture {
 public:
  StderrCapture() : saved_(dup(2)) {
    std::fflush(stderr);
    FILE* f = std::fopen(dir_.path("err").c_str(), "w");
    dup2(fileno(f), 2);
    std::fclose(f);
  }
  ~StderrCapture() { restore(); }
  std::string text() {
    restore();
    std::stringstream all;
    all << std::ifstream(dir_.path("err")).rdbuf();
    return all.str();
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  TempDir dir_;
  int saved_;
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ServerFaults, PollFailuresCostAPauseAndOneLine) {
  std::atomic<bool> failing{false};
  std::atomic<int> calls{0};
  HttpServerConfig config;
  config.calls.poll = [&](pollfd* fds, nfds_t n, int timeout) {
    ++calls;
    if (!failing) return ::poll(fds, n, timeout);
    errno = ENOMEM;
    return -1;
  };
  StderrCapture err;
  std::string error;
  auto s = HttpServer::start(config, routes(), error);
  ASSERT_TRUE(s) << error;
  ASSERT_TRUE(serves(s->port()));
  failing = true;
  calls = 0;
  auto during = std::async(std::launch::async, [&] { return serves(s->port(), 10s); });  // waits it out
  std::this_thread::sleep_for(1s);
  const int failed_calls = calls;
  failing = false;
  EXPECT_TRUE(during.get()) << "a scrape sent while poll() failed was never answered";
  EXPECT_TRUE(serves(s->port()));
  s.reset();
  EXPECT_GE(failed_calls, 3) << "poll() was not retried";
  EXPECT_LE(failed_calls, 20) << "poll() failing made the thread spin";
  const std::string log = err.text();
  EXPECT_EQ(count(log, "jvmsight: warning: http server: poll failed (Cannot allocate memory)"), 1u) << log;
}

TEST(ServerFaults, AnExceptionOutOfATurnRestartsTheLoopAfterAPause) {
  std::atomic<bool> throwing{false};
  std::atomic<int> calls{0};
  HttpServerConfig config;
  config.calls.poll = [&](pollfd* fds, nfds_t n, int timeout) {
    if (!throwing) return ::poll(fds, n, timeout);
    ++calls;
    throw std::runtime_error("injected");
  };
  StderrCapture err;
  std::string error;
  auto s = HttpServer::start(config, routes(), error);
  ASSERT_TRUE(s) << error;
  ASSERT_TRUE(serves(s->port()));
  throwing = true;
  auto during = std::async(std::launch::async, [&] { return serves(s->port(), 10s); });
  std::this_thread::sleep_for(2500ms);
  const int thrown = calls;
  throwing = false;
  EXPECT_TRUE(during.get()) << "the server did not come back";
  EXPECT_TRUE(serves(s->port()));
  s.reset();
  EXPECT_GE(thrown, 2) << "the loop was not restarted";
  EXPECT_LE(thrown, 4) << "no pause between restarts";
  const std::string log = err.text();
  EXPECT_EQ(count(log, "jvmsight: warning: http server: a turn failed (injected)"), 1u) << log;
}

TEST(ServerFaults, AcceptFailuresPauseAcceptingNotTheServer) {
  std::atomic<int> failure{0};  // the errno accept() fails with, 0: none
  std::atomic<int> calls{0};
  HttpServerConfig config;
  config.calls.accept = [&](int fd, sockaddr* addr, socklen_t* len, int flags) {
    if (failure == 0) return ::accept4(fd, addr, len, flags);
    ++calls;
    errno = failure;
    return -1;
  };
  StderrCapture err;
  std::string error;
  auto s = HttpServer::start(config, routes(), error);
  ASSERT_TRUE(s) << error;
  for (int why : {EMFILE, ENOMEM, EINVAL}) {
    failure = why;
    calls = 0;
    auto during = std::async(std::launch::async, [&] { return serves(s->port(), 10s); });
    std::this_thread::sleep_for(1s);
    const int failed_calls = calls;
    failure = 0;
    EXPECT_TRUE(during.get()) << "the connection waiting in the backlog was never served";
    EXPECT_GE(failed_calls, 3) << why;
    EXPECT_LE(failed_calls, 20) << "accept() failing (" << why << ") made the thread spin";
  }
  EXPECT_TRUE(serves(s->port()));
  s.reset();
  const std::string log = err.text();
  EXPECT_EQ(count(log, "jvmsight: warning: http server: cannot accept a connection (Too many open files)"), 1u) << log;
  EXPECT_EQ(count(log, "jvmsight: warning: http server:"), 1u) << "one line per spell of trouble\n" << log;
}

TEST(ServerFaults, EachAllocationFailingEndsOneConnectionAtMost) {
  std::string error;
  auto s = HttpServer::start(HttpServerConfig{}, routes(), error);
  ASSERT_TRUE(s) << error;
  const long before = failed_server_allocations();
  // The nth allocation of a request's whole path: accepting it, reading
  // its head, routing, the answer's bytes.
  for (long n = 1; n <= 12; ++n) {
    fail_nth_server_allocation(n);
    http_get(s->port(), "/metrics", "127.0.0.1", 3s);  // may fail: it is the one that lost its memory
    stop_failing_allocations();
    ASSERT_TRUE(serves(s->port())) << "after the allocation #" << n << " of a request failed";
  }
  EXPECT_GE(failed_server_allocations() - before, 8) << "the requests allocated less than thought: nothing failed";
}

TEST(ServerFaults, NoMemoryAtAllForAWhile) {
  StderrCapture err;
  std::string error;
  auto s = HttpServer::start(HttpServerConfig{}, routes(), error);
  ASSERT_TRUE(s) << error;
  const long before = failed_server_allocations();
  fail_server_allocations();
  for (int i = 0; i < 3; ++i) http_get(s->port(), "/metrics", "127.0.0.1", 500ms);
  stop_failing_allocations();
  EXPECT_GT(failed_server_allocations(), before);
  const auto ended = std::chrono::steady_clock::now();
  EXPECT_TRUE(serves(s->port(), 5s));
  EXPECT_LT(std::chrono::steady_clock::now() - ended, 3s) << "slow to come back";
  s.reset();
  const std::string log = err.text();
  // No memory even for the line: a fixed one.
  EXPECT_EQ(count(log, "jvmsight: warning: http server: "), 1u) << log;
  EXPECT_EQ(count(log, "jvmsight: warning: http server: out of memory; it serves on"), 1u) << log;
}

}  // namespace
}  // namespace jvmsight::test
