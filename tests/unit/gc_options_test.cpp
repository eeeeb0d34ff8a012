// The GC options (docs/OPTIONS.md, section GC): every accepted form and
// every error message.
#include <gtest/gtest.h>

#include "options/options.h"

namespace jvmsight {
namespace {

TEST(GcOptions, SpanThresholdDefaultsToEveryPause) {
  auto p = parse_options("");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p.options.gc_span_min_ns, 0);
}

TEST(GcOptions, SpanThresholdAcceptsWholeAndDecimalMilliseconds) {
  EXPECT_EQ(parse_options("gc_span_min_ms=10").options.gc_span_min_ns, 10'000'000);
  EXPECT_EQ(parse_options("gc_span_min_ms=0.5").options.gc_span_min_ns, 500'000);
  EXPECT_EQ(parse_options("gc_span_min_ms=0").options.gc_span_min_ns, 0);
  EXPECT_EQ(parse_options("gc_span_min_ms=3600000").options.gc_span_min_ns, 3'600'000'000'000);
  auto p = parse_options("port=0,gc_span_min_ms=2.25,log=warn");
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.options.gc_span_min_ns, 2'250'000);
}

TEST(GcOptions, SpanThresholdErrorsSayWhatIsAccepted) {
  for (const char* bad :
       {"gc_span_min_ms=", "gc_span_min_ms=-1", "gc_span_min_ms=abc", "gc_span_min_ms=10ms", "gc_span_min_ms=3600001",
        "gc_span_min_ms=1e3", "gc_span_min_ms=nan", "gc_span_min_ms=inf", "gc_span_min_ms=5 0"}) {
    auto p = parse_options(bad);
    EXPECT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.error.find("bad gc_span_min_ms"), std::string::npos) << bad << ": " << p.error;
    EXPECT_NE(p.error.find("expected milliseconds from 0 to 3600000"), std::string::npos) << p.error;
  }
}

TEST(GcOptions, SpanThresholdGivenTwiceOrWithoutValue) {
  auto twice = parse_options("gc_span_min_ms=1,gc_span_min_ms=2");
  EXPECT_EQ(twice.error, "option 'gc_span_min_ms' given twice");
  auto bare = parse_options("gc_span_min_ms");
  EXPECT_NE(bare.error.find("has no value"), std::string::npos) << bare.error;
  EXPECT_NE(bare.error.find("gc_span_min_ms"), std::string::npos) << bare.error;
}

TEST(GcOptions, UnknownKeyMessageListsTheGcOption) {
  auto p = parse_options("gc_span_min=5");
  EXPECT_NE(p.error.find("unknown option 'gc_span_min'"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("gc_span_min_ms"), std::string::npos) << p.error;
}

TEST(GcOptions, NotificationsAutoOnOff) {
  EXPECT_EQ(parse_options("").options.gc_notifications, Tristate::auto_);
  EXPECT_EQ(parse_options("gc_notifications=auto").options.gc_notifications, Tristate::auto_);
  EXPECT_EQ(parse_options("gc_notifications=on").options.gc_notifications, Tristate::on);
  EXPECT_EQ(parse_options("gc_notifications=off").options.gc_notifications, Tristate::off);
}

TEST(GcOptions, NotificationsErrorsSayWhatIsAccepted) {
  for (const char* bad : {"gc_notifications=", "gc_notifications=yes", "gc_notifications=ON", "gc_notifications=1"}) {
    auto p = parse_options(bad);
    EXPECT_FALSE(p.ok()) << bad;
    EXPECT_NE(p.error.find("bad gc_notifications"), std::string::npos) << p.error;
    EXPECT_NE(p.error.find("expected auto, on or off"), std::string::npos) << p.error;
  }
  EXPECT_EQ(parse_options("gc_notifications=on,gc_notifications=off").error, "option 'gc_notifications' given twice");
}

}  // namespace
}  // namespace jvmsight
