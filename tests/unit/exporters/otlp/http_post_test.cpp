// One OTLP/HTTP POST (HttpPoster) against Python's http.server, a server
// nobody here wrote: it parses the request (method, path, Host,
// Content-Length, the body's bytes) and answers as a collector can: 200 with
// a body, 503 with Retry-After, a chunked body, over plain TCP and over TLS
// with a test CA. A peer that never answers ends the post at its deadline.
#include "exporters/otlp/http_post.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>

#include "tests/harness/jvm_process.h"
#include "tests/harness/test_ca.h"

namespace jvmsight::otlp {
namespace {

using namespace std::chrono_literals;

// Prints "PORT <n>" once listening, then "GOT <method> <path> host=<Host>
// type=<Content-Type> length=<Content-Length> body=<hex>" per request.
// argv: [certificate key] for TLS.
constexpr const char* collector_py = R"PY(
import http.server, ssl, sys
class Collector(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        print("GOT", self.command, self.path, "host=" + self.headers["Host"],
              "type=" + self.headers["Content-Type"], "length=" + self.headers["Content-Length"],
              "body=" + body.hex(), flush=True)
        if self.path == "/v1/traces":
            self.send_response(503)
            self.send_header("Retry-After", "7")
            self.send_header("Content-Length", "4")
            self.end_headers()
            self.wfile.write(b"busy")
        elif self.path == "/v1/logs":
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            for chunk in (b"part", b"ial"):
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Collector)
if len(sys.argv) > 2:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[1], sys.argv[2])
    server.socket = context.wrap_socket(server.socket, server_side=True)
print("PORT", server.server_address[1], flush=True)
server.serve_forever()
)PY";

struct Collector {
  std::unique_ptr<test::Process> process;
  std::string port;

  explicit Collector(const std::vector<std::string>& tls_files = {}) {
    std::vector<std::string> argv{"/usr/bin/python3", "-c", collector_py};
    argv.insert(argv.end(), tls_files.begin(), tls_files.end());
    process = std::make_unique<test::Process>(argv);
    auto line = process->wait_for_line("PORT ", 10s);
    if (line) port = line->substr(5);
  }
  std::string url(const std::string& scheme, const std::string& path) const {
    return scheme + "://127.0.0.1:" + port + path;
  }
  // What the server saw of the nth request.
  std::string got(size_t nth = 1) const { return process->wait_for_line("GOT ", 10s, nth).value_or(""); }
};

HttpUrl parsed(const std::string& url) {
  HttpUrl u;
  EXPECT_TRUE(parse_http_url(url, u)) << url;
  return u;
}

const std::string protobuf_type = "Content-Type: application/x-protobuf";

TEST(HttpPost, TheServerGetsTheBodyByteForByteAndItsAnswerIsRead) {
  Collector collector;
  ASSERT_FALSE(collector.port.empty()) << collector.process->err();
  HttpPoster poster{TlsSettings{}};
  const std::string body("\x0a\x00\x01\xff\r\n", 6);  // binary protobuf, CR LF and NUL included
  HttpReply reply = poster.post(parsed(collector.url("http", "/v1/metrics")), {protobuf_type}, body, 5s);
  EXPECT_EQ(reply.error, "");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "ok");
  EXPECT_EQ(collector.got(), "GOT POST /v1/metrics host=127.0.0.1:" + collector.port +
                                 " type=application/x-protobuf length=6 body=0a0001ff0d0a");
}

TEST(HttpPost, RetryAfterAndChunkedAnswers) {
  Collector collector;
  ASSERT_FALSE(collector.port.empty()) << collector.process->err();
  HttpPoster poster{TlsSettings{}};
  HttpReply busy = poster.post(parsed(collector.url("http", "/v1/traces")), {protobuf_type}, "x", 5s);
  EXPECT_EQ(busy.status, 503);
  EXPECT_EQ(busy.retry_after, "7");
  EXPECT_EQ(busy.body, "busy");
  HttpReply chunked = poster.post(parsed(collector.url("http", "/v1/logs")), {protobuf_type}, "", 5s);
  EXPECT_EQ(chunked.status, 200);
  EXPECT_EQ(chunked.body, "partial");
  EXPECT_EQ(collector.got(2),
            "GOT POST /v1/logs host=127.0.0.1:" + collector.port + " type=application/x-protobuf length=0 body=");
}

TEST(HttpPost, OverTlsOnlyAServerTheCaVouchesFor) {
  test::TestCa ca, other;
  test::make_test_ca(ca);
  test::make_test_ca(other);
  ASSERT_EQ(ca.error + other.error, "");
  Collector collector({ca.server_cert, ca.server_key});
  ASSERT_FALSE(collector.port.empty()) << collector.process->err();
  HttpPoster trusting{TlsSettings{ca.ca_cert, "", ""}};
  HttpReply reply = trusting.post(parsed(collector.url("https", "/v1/metrics")), {protobuf_type}, "tls", 5s);
  EXPECT_EQ(reply.error, "");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "ok");
  EXPECT_NE(collector.got().find(" body=746c73"), std::string::npos);
  HttpPoster stranger{TlsSettings{other.ca_cert, "", ""}};
  HttpReply refused = stranger.post(parsed(collector.url("https", "/v1/metrics")), {protobuf_type}, "tls", 5s);
  EXPECT_EQ(refused.status, 0);
  EXPECT_NE(refused.error, "");
}

// A peer that accepts (the kernel's backlog does) and never answers.
TEST(HttpPost, ASilentPeerEndsThePostAtItsDeadline) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ASSERT_EQ(listen(fd, 4), 0);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  HttpPoster poster{TlsSettings{}};
  const auto start = std::chrono::steady_clock::now();
  HttpReply reply = poster.post(parsed("http://127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/v1/metrics"),
                                {protobuf_type}, "x", 300ms);
  const auto took = std::chrono::steady_clock::now() - start;
  close(fd);
  EXPECT_EQ(reply.status, 0);
  EXPECT_EQ(reply.error, "no complete answer in time");
  EXPECT_GE(took, 290ms);  // the waits are in whole milliseconds
  EXPECT_LT(took, 3s);
}

}  // namespace
}  // namespace jvmsight::otlp
