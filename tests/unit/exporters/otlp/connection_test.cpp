// The HTTP transport's endpoint URLs: scheme, host (names, IPv4, [IPv6]),
// default ports, path; anything else refused.
#include <gtest/gtest.h>

#include "exporters/otlp/http_post.h"

namespace jvmsight::otlp {
namespace {

TEST(HttpUrl, SchemesHostsPortsAndPaths) {
  HttpUrl u;
  ASSERT_TRUE(parse_http_url("http://collector:4318/v1/metrics", u));
  EXPECT_FALSE(u.tls);
  EXPECT_EQ(u.host, "collector");
  EXPECT_EQ(u.port, "4318");
  EXPECT_EQ(u.path, "/v1/metrics");
  ASSERT_TRUE(parse_http_url("https://otel.example.com/custom/logs?x=1", u));
  EXPECT_TRUE(u.tls);
  EXPECT_EQ(u.port, "443");
  EXPECT_EQ(u.path, "/custom/logs?x=1");
  ASSERT_TRUE(parse_http_url("http://[::1]:4318/v1/traces", u));
  EXPECT_EQ(u.host, "::1");
  EXPECT_EQ(u.port, "4318");
  ASSERT_TRUE(parse_http_url("http://127.0.0.1", u));
  EXPECT_EQ(u.port, "80");
  EXPECT_EQ(u.path, "/");
}

TEST(HttpUrl, RefusesWhatIsNoHttpUrl) {
  HttpUrl u;
  for (const char* bad : {"collector:4318", "grpc://x:1", "http://", "http://host:/v1", "http://[::1/v1"})
    EXPECT_FALSE(parse_http_url(bad, u)) << bad;
}

}  // namespace
}  // namespace jvmsight::otlp
