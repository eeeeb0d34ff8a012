// Entry points of untrusted input that no other test covers for the two
// properties docs/SECURITY.md ("Untrusted input") promises: bytes from
// outside are never echoed into a header, used as a format, or read without
// a bound. Printf-style directives stand in for a format-string attack: if
// any of them were interpreted, the output would differ (or crash).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>

#include "agent/portfile.h"
#include "exporters/http/access.h"
#include "exporters/http/http_server.h"
#include "options/options.h"
#include "tests/harness/http_client.h"
#include "tests/harness/jvm_process.h"

namespace jvmsight {
namespace {

using test::http_raw;

std::unique_ptr<HttpServer> serve_metrics() {
  std::string error;
  auto server =
      HttpServer::start(HttpServerConfig{},
                        {{"/metrics",
                          [](const HttpRequest& r) {
                            return HttpResponse{200, plain_content_type, "q=" + query_param(r.query, "format") + "\n"};
                          }}},
                        error);
  EXPECT_TRUE(server) << error;
  return server;
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

TEST(UntrustedInput, OptionValuesWithDirectivesAreTakenLiterally) {
  auto parsed = parse_options("portfile=/tmp/%s%n%x,log=warn");
  ASSERT_TRUE(parsed.ok()) << parsed.error;
  EXPECT_EQ(parsed.options.portfile, "/tmp/%s%n%x");
  auto bad = parse_options("%s%n%s%n=1");
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.error.find("'%s%n%s%n'"), std::string::npos) << bad.error;
}

TEST(UntrustedInput, PortfilePathWithDirectivesIsAPlainName) {
  test::TempDir dir;
  std::string path = dir.path("port-%s%n%x");
  ASSERT_EQ(write_portfile(path, 9404), "");
  std::ifstream in(path);
  std::string content;
  std::getline(in, content);
  EXPECT_EQ(content, "9404");
  std::string missing = dir.path("no-such-dir-%n/port");
  EXPECT_NE(write_portfile(missing, 1).find(missing), std::string::npos);
}

// A credentials file is read whole into memory, so it is capped; a big one
// (or /dev/zero) is refused before reading, and no byte of it is echoed.
TEST(UntrustedInput, CredentialFilesAreBounded) {
  test::TempDir dir;
  std::string big = dir.path("big");
  std::ofstream(big) << "user:" << std::string(70 * 1024, 'p') << "\n";
  chmod(big.c_str(), 0600);
  Credentials out;
  std::string warning;
  std::string error = read_credentials(big, "", out, warning);
  EXPECT_NE(error.find("is over 64 KiB"), std::string::npos) << error;
  EXPECT_EQ(error.find("ppp"), std::string::npos);
  EXPECT_NE(read_credentials("", "/dev/zero", out, warning).find("not a regular file"), std::string::npos);
  std::string directives = dir.path("fmt");
  std::ofstream(directives) << "%s%n:%n%s\n";
  chmod(directives.c_str(), 0600);
  Credentials fmt;
  ASSERT_EQ(read_credentials(directives, "", fmt, warning), "");
  EXPECT_TRUE(fmt.accepts(("Basic " + base64("%s%n:%n%s")).c_str()));
}

}  // namespace
}  // namespace jvmsight
