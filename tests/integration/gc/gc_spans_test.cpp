// Pauses as span records and on GET /gc. They do not depend on the
// collector: checked with G1, the default.
#include <gtest/gtest.h>

#include <thread>

#include "tests/integration/gc/gc_pauses.h"

namespace jvmsight::test {
namespace {

class GcSpans : public GcPauses {};
INSTANTIATE_TEST_SUITE_P(Jdks, GcSpans,
                         ::testing::Combine(::testing::ValuesIn(system_jdks().list()), ::testing::Values("G1")),
                         param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GcSpans);

TEST_P(GcSpans, PausesBecomeSpansAboveTheThreshold) {
  auto jvm = start();
  ASSERT_TRUE(jvm && jvm->port > 0);
  churn(*jvm, 3, 100);
  std::this_thread::sleep_for(1500ms);
  HttpResult r = jvm->get("/gc");
  ASSERT_EQ(r.status, 200);
  EXPECT_NE(r.headers.find("application/json"), std::string::npos);
  EXPECT_NE(r.body.find("\"gc\":\"G1 Old Generation\",\"action\":\"end of major GC\",\"cause\":\"System.gc()\""),
            std::string::npos)
      << r.body;
  long pauses = agent_view(jvm->scrape()).total_pauses;
  size_t spans = 0;
  for (size_t pos = r.body.find("\"spans\":"); (pos = r.body.find("\"gc.pause\"", pos + 1)) != std::string::npos;)
    ++spans;
  EXPECT_GE(pauses, 3);
  EXPECT_EQ(static_cast<long>(spans), pauses) << "threshold 0: every pause is a span";

  // An hour's threshold: pauses are measured, no span is queued.
  auto quiet = start("gc_span_min_ms=3600000");
  ASSERT_TRUE(quiet && quiet->port > 0);
  churn(*quiet, 3, 100);
  std::this_thread::sleep_for(1500ms);
  HttpResult q = quiet->get("/gc");
  EXPECT_NE(q.body.find("\"span_queue\":{\"size\":0,"), std::string::npos) << q.body;
  EXPECT_NE(q.body.find("\"recent_pauses\":[{\"name\":\"gc.pause\""), std::string::npos) << q.body;
  EXPECT_NE(q.body.find("\"span_min_ns\":3600000000000"), std::string::npos) << q.body;
}

}  // namespace
}  // namespace jvmsight::test
