// Raw request bytes through the real server: the agent's own routes
// (/metrics, /threads, /deadlocks, /gc, /), its access checks (basic and
// bearer credentials, detail endpoints for local clients only or one dump a
// second), its limits (8 KiB of request head, GET/HEAD only) and its
// request parser, over a loopback socket from a local or a "remote" address. The
// server must answer every request with one well-formed HTTP/1.1 response
// (or close a malformed one without answering), and keep serving.
#include <arpa/inet.h>
#include <fuzzer/FuzzedDataProvider.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <utility>

#include "exporters/http/http_server.h"
#include "exporters/http/landing_page.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "exporters/reports/report_endpoints.h"
#include "tests/harness/endpoints.h"

namespace {

using namespace jvmsight;

// A thread with every kind of text the writers must escape.
ThreadRecord odd_thread() {
  ThreadRecord t;
  t.id = 7;
  t.name = std::string("w\"o\\r\nk\x01\xff\xc3(", 11);
  t.state = "BLOCKED";
  t.lock = LockRef{1, "com.example.Lock\"\n"};
  t.stack.push_back({"com.example.C\\", "run\t", "C.java", 12, false, {}});
  return t;
}

MetricFamilies odd_families() {
  MetricFamilies out;
  add_sample(add_uncatalogued_family(out, "jvmsight_threads", MetricType::gauge, "threads\nby state"), 3,
             {{"state", "a\"b"}});
  return out;
}

// What the routes serve; they live as long as the server (static).
test::FixedReports& odd_reports() {
  static test::FixedReports reports = [] {
    test::FixedReports r;
    r.threads = std::vector<ThreadRecord>{odd_thread()};
    DeadlockReport d;
    d.threads.push_back(odd_thread());
    LockOrder order{LockId{1, "com.example.A\"\n", LockKind::monitor}, LockId{2, "B\\", LockKind::juc}, 7, "t\"1",
                    FrameRecord{"com.example.C\\", "run\t", "C.java", 12, false, {}}};
    LockOrder back = order;
    std::swap(back.from, back.to);
    r.page = DeadlocksPage{{d}, {LockOrderInversion{{order, back}}}};
    return r;
  }();
  return reports;
}

std::vector<HttpRoute> agent_routes() {
  static test::MetricsFrom metrics([] { return std::optional<MetricFamilies>(odd_families()); });
  std::vector<HttpRoute> routes;
  routes.push_back(metrics_endpoint(metrics, {{"pod", "p\\1"}}));
  routes.push_back(gc_endpoint(odd_reports()));
  // As the agent wires details=local with the shared remote limit.
  auto remote_dumps = std::make_shared<DumpRateLimit>(std::chrono::seconds(1));
  for (HttpRoute detail : {threads_endpoint(odd_reports()), deadlocks_endpoint(odd_reports())}) {
    detail.local_only = true;
    detail.remote_rate_limit = remote_dumps;
    routes.push_back(std::move(detail));
  }
  routes.push_back(landing_page(routes));
  return routes;
}

struct Server {
  std::unique_ptr<HttpServer> http;
  Server() {
    char dir[] = "/tmp/jvmsight-http-fuzz.XXXXXX";
    if (mkdtemp(dir) == nullptr) std::abort();
    std::string users = std::string(dir) + "/users", token = std::string(dir) + "/token";
    std::ofstream(users) << "prom:pass\n";
    std::ofstream(token) << "tok\n";
    HttpServerConfig config;
    // 127.0.0.1 is local, 127.0.0.2 is not: both access paths are reached.
    config.is_local = [](const std::string& addr) { return addr == "127.0.0.1"; };
    config.request_timeout_ms = 2000;
    config.cpu_percent = 100;  // inputs as fast as the server takes them: no pauses to wait out
    std::string warning;
    std::string error = read_credentials(users, token, config.credentials, warning);
    std::remove(users.c_str());
    std::remove(token.c_str());
    rmdir(dir);
    if (error.empty()) http = HttpServer::start(std::move(config), agent_routes(), error);
    if (!http) {
      std::fprintf(stderr, "http_server_fuzz: %s\n", error.c_str());
      std::abort();
    }
  }
};

int connect_from(const char* source, int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  // The client ends each request (shutdown) before the server answers, so
  // it is the side left in TIME_WAIT, a minute per connection: with the
  // source port picked at bind() time, a few tens of thousands of inputs
  // would use up the ephemeral ports. Picked at connect() instead, a port
  // in TIME_WAIT is reused for loopback (Linux's tcp_tw_reuse default).
  int no_port = 1;
  setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &no_port, sizeof(no_port));
  sockaddr_in src{};
  src.sin_family = AF_INET;
  inet_pton(AF_INET, source, &src.sin_addr);
  sockaddr_in dst{};
  dst.sin_family = AF_INET;
  dst.sin_port = htons(static_cast<uint16_t>(port));
  dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof(src)) != 0) {
    std::perror("http_server_fuzz: bind");
    std::abort();
  }
  if (connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)) != 0) {
    // Interrupted, the connection goes on being made: wait for its outcome.
    int error = errno;
    if (error == EINTR) {
      pollfd p{fd, POLLOUT, 0};
      while (poll(&p, 1, 20000) < 0 && errno == EINTR) {
      }
      socklen_t len = sizeof(error);
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len);
    }
    if (error != 0 && error != EINTR) {
      std::fprintf(stderr, "http_server_fuzz: connect: %s\n", std::strerror(error));
      std::abort();
    }
  }
  return fd;
}

// The length of a whole answer once its head has arrived (head, blank line,
// Content-Length bytes), or npos while that cannot be told yet.
size_t answer_length(const std::string& answer) {
  size_t head_end = answer.find("\r\n\r\n");
  if (head_end == std::string::npos) return std::string::npos;
  size_t cl = answer.find("\r\nContent-Length: ");
  if (cl == std::string::npos || cl > head_end) return std::string::npos;
  return head_end + 4 + std::strtoul(answer.c_str() + cl + 18, nullptr, 10);
}

// libFuzzer's watchdog (SIGALRM) interrupts blocking calls: each is
// resumed, never mistaken for a failure or for a server that went silent.
bool wait_readable(int fd, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    int n = poll(&p, 1, static_cast<int>(left.count()));
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

// pieces > 1: a slow client, its request cut in that many pieces with a
// pause between them, so the server reads the head over several turns.
std::string exchange(const char* source, int port, const std::string& request, int pieces = 1) {
  int fd = connect_from(source, port);
  const size_t piece = request.size() / static_cast<size_t>(pieces) + 1;
  for (size_t sent = 0; sent < request.size();) {
    if (sent > 0 && sent % piece == 0) usleep(1000);
    const size_t next = std::min(request.size(), (sent / piece + 1) * piece);
    ssize_t n = send(fd, request.data() + sent, next - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the server closed early (e.g. refused the head): its answer tells
    sent += static_cast<size_t>(n);
  }
  shutdown(fd, SHUT_WR);  // the request ends here, whole or not
  std::string answer;
  char buf[16384];
  // The server gives a request 2 s; 20 s without answer or close is a hang.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  for (;;) {
    if (!wait_readable(fd, deadline)) {
      std::fprintf(stderr, "http_server_fuzz: no answer and no close within 20 s\n");
      std::abort();
    }
    ssize_t n = recv(fd, buf, sizeof(buf), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buf, static_cast<size_t>(n));
    // Once the whole answer is in (a HEAD answer, without body, waits for
    // the close), closing with a reset leaves no TIME_WAIT behind.
    if (answer.size() >= answer_length(answer)) {
      linger reset{1, 0};
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof(reset));
      break;
    }
  }
  close(fd);
  return answer;
}

[[noreturn]] void malformed(const std::string& why, const std::string& request, const std::string& answer) {
  std::fprintf(stderr, "http_server_fuzz: %s\n--- request (%zu bytes)\n%s\n--- answer (%zu bytes)\n%s\n", why.c_str(),
               request.size(), request.c_str(), answer.size(), answer.substr(0, 2000).c_str());
  std::abort();
}

// One status line, headers, a blank line, and exactly Content-Length bytes
// of body when the answer says so.
void check_answer(const std::string& request, const std::string& answer) {
  if (answer.empty()) return;  // closed without answering (a client that ends before its request does)
  size_t line_end = answer.find("\r\n");
  size_t space = answer.find(' ');
  // Every answer is the server's own (civetweb's error pages, before ours,
  // echoed the request's version token: "HTTP/<any text> 400").
  if (answer.rfind("HTTP/1.1 ", 0) != 0 || line_end == std::string::npos || space == std::string::npos ||
      space > line_end || line_end - space < 4)
    malformed("no status line", request, answer);
  for (size_t i = 0; i < line_end; ++i)
    if (static_cast<unsigned char>(answer[i]) < 0x20) malformed("a control byte in the status line", request, answer);
  int status = std::atoi(answer.c_str() + space + 1);
  if (status != 200 && (status < 400 || status > 599))
    malformed("unexpected status " + std::to_string(status), request, answer);
  size_t head_end = answer.find("\r\n\r\n");
  if (head_end == std::string::npos) malformed("the header block does not end", request, answer);
  std::string head = answer.substr(0, head_end + 2);
  size_t cl = head.find("\r\nContent-Length: ");
  if (cl == std::string::npos) malformed("no Content-Length", request, answer);
  size_t length = std::strtoul(head.c_str() + cl + 18, nullptr, 10);
  // A HEAD answer has no body, unless the request was too broken to be
  // read as HEAD (then it is answered like any other bad request).
  size_t method = request.find_first_not_of("\r\n");  // blank lines before the request line are skipped
  bool head_request = method != std::string::npos && request.compare(method, 5, "HEAD ") == 0;
  size_t body = answer.size() - head_end - 4;
  if (body != length && !(head_request && body == 0))
    malformed("the body is " + std::to_string(body) + " bytes, Content-Length says " + std::to_string(length), request,
              answer);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static Server server;
  static unsigned long inputs = 0;
  FuzzedDataProvider in(data, size);
  // The last byte: bit 0 the source, bits 1-3 how slowly the request comes.
  const uint8_t how = in.ConsumeIntegral<uint8_t>();
  const char* source = (how & 1) ? "127.0.0.1" : "127.0.0.2";
  std::string request = in.ConsumeRemainingBytesAsString();
  check_answer(request, exchange(source, server.http->port(), request, 1 + ((how >> 1) & 7)));
  // Still serving: every 256 inputs a plain authorized scrape must succeed.
  if (++inputs % 256 == 0) {
    std::string scrape = "GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok\r\n\r\n";
    std::string answer = exchange("127.0.0.1", server.http->port(), scrape);
    if (answer.rfind("HTTP/1.1 200 ", 0) != 0) malformed("the server stopped serving", scrape, answer);
  }
  return 0;
}
