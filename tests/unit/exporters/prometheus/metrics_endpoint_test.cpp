// GET /metrics through the real server: the text format, and 503 (never
// zeros) when the source has no snapshot in time.
#include "exporters/prometheus/metrics_endpoint.h"

#include <gtest/gtest.h>

#include "tests/harness/http_client.h"
#include "tests/harness/serve.h"

namespace jvmsight {
namespace {

using test::http_get;
using test::MetricsFrom;
using test::serve;

TEST(MetricsEndpoint, UnavailableSnapshotIs503NotZeros) {
  MetricsFrom none([] { return std::optional<MetricFamilies>(); });
  auto s = serve({metrics_endpoint(none)});
  EXPECT_EQ(http_get(s->port(), "/metrics").status, 503);
}

TEST(MetricsEndpoint, ServesTextFormat) {
  MetricsFrom one([] {
    MetricFamilies f;
    add_sample(add_uncatalogued_family(f, "up_like", MetricType::gauge, "h"), 1);
    return std::optional<MetricFamilies>(f);
  });
  auto s = serve({metrics_endpoint(one)});
  auto r = http_get(s->port(), "/metrics");
  EXPECT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(r.body.find("up_like 1"), std::string::npos);
}

}  // namespace
}  // namespace jvmsight
