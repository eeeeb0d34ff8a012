// The detail endpoints through the real server: formats asked for by query.
#include "exporters/reports/report_endpoints.h"

#include <gtest/gtest.h>

#include "tests/harness/http_client.h"
#include "tests/harness/serve.h"

namespace jvmsight {
namespace {

using test::serve;

TEST(HttpProtocol, GcIsJsonOnlyAndSaysSo) {
  test::FixedReports reports;
  auto s = serve(HttpServerConfig{}, {gc_endpoint(reports)});
  ASSERT_TRUE(s);
  for (const char* path : {"/gc", "/gc?format=json"}) {
    auto r = test::http_get(s->port(), path);
    EXPECT_EQ(r.status, 200) << path;
    EXPECT_NE(r.headers.find("application/json"), std::string::npos) << path;
  }
  auto text = test::http_get(s->port(), "/gc?format=text");
  EXPECT_EQ(text.status, 400);
  EXPECT_EQ(text.body, "/gc is served as JSON only; use ?format=json or no format\n");
}

}  // namespace
}  // namespace jvmsight
