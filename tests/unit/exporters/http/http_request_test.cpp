// The request-head reader of the exporter's server, on the bytes clients send.
#include "exporters/http/http_request.h"

#include <gtest/gtest.h>

#include <string>

namespace jvmsight {
namespace {

RequestHead parsed(const std::string& head, int expected_status = 0) {
  RequestHead out;
  EXPECT_EQ(parse_request_head(head, out), expected_status) << head;
  return out;
}

TEST(RequestHead, EndIsTheBlankLineWithCrlfOrBareLf) {
  EXPECT_EQ(request_head_end("GET / HTTP/1.1\r\nHost: x\r\n"), std::string::npos);
  EXPECT_EQ(request_head_end("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), 27u);
  EXPECT_EQ(request_head_end("GET / HTTP/1.0\n\nrest"), 16u);
  // Blank lines before the request line are not its end.
  EXPECT_EQ(request_head_end("\r\n\r\n"), std::string::npos);
  EXPECT_EQ(request_head_end("\r\nGET / HTTP/1.0\r\n\r\n"), 20u);
}

TEST(RequestHead, RequestLinePathQueryAndAuthorization) {
  RequestHead r = parsed("GET /metrics?name[]=a%20b HTTP/1.1\r\nHost: h\r\nauthorization:  Bearer t0k  \r\n\r\n");
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.path, "/metrics");
  EXPECT_EQ(r.query, "name[]=a%20b");  // raw: the handler decides
  EXPECT_TRUE(r.has_authorization);
  EXPECT_EQ(r.authorization, "Bearer t0k");
  RequestHead plain = parsed("\r\nHEAD /%6detrics HTTP/1.0\r\n\r\n");
  EXPECT_EQ(plain.method, "HEAD");
  EXPECT_EQ(plain.path, "/metrics");
  EXPECT_FALSE(plain.has_authorization);
}

TEST(RequestHead, MalformedHeadsAre400) {
  for (const char* head :
       {"GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 x\r\n\r\n", "GET metrics HTTP/1.1\r\n\r\n",
        "G(T / HTTP/1.1\r\n\r\n", "GET /a%2 HTTP/1.1\r\n\r\n", "GET /a%zz HTTP/1.1\r\n\r\n",
        "GET /a%00b HTTP/1.1\r\n\r\n", "GET / HTTP/1.1\r\nNo colon\r\n\r\n", "GET / HTTP/1.1\r\nBad Name: v\r\n\r\n",
        "GET / HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n",
        "GET / HTTP/1.1\r\nX: a\x01\r\n\r\n", "GET /\x7f HTTP/1.1\r\n\r\n", "GET / HTTPevil %s\r\n\r\n",
        "GET / HTTP/1.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n"})
    parsed(head, 400);
}

TEST(RequestHead, OtherHttpVersionsAre505) {
  parsed("GET / HTTP/2.0\r\n\r\n", 505);
  parsed("GET / HTTP/9.9\r\n\r\n", 505);
  parsed("GET / HTTP/1.1\r\n\r\n", 0);
}

}  // namespace
}  // namespace jvmsight
