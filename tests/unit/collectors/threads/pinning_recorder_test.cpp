// The pinning recorder's bookkeeping; the counts themselves are checked
// against JFR in a real JVM (tests/otlp/integration/pinning_test.cpp).
#include "collectors/threads/pinning_recorder.h"

#include <gtest/gtest.h>

#include <vector>

#include "collectors/contention/monitor_contention_recorder.h"

namespace jvmsight {
namespace {

using Action = PinningRecorder::Action;

TEST(PinStamp, NeverTakenForAContentionStampNorTheOtherWay) {
  for (uint64_t now : {uint64_t{0}, uint64_t{1}, uint64_t{123456789}, ~uint64_t{0}}) {
    for (uint32_t slot : {0u, 1u, 8191u}) EXPECT_FALSE(PinStamp::is_start(ThreadStamp::enter(now, slot)));
    EXPECT_FALSE(PinStamp::is_start(ThreadStamp::wait(now)));
    const uint64_t pin = PinStamp::start(now);
    EXPECT_TRUE(PinStamp::is_start(pin));
    EXPECT_FALSE(ThreadStamp::is_enter(pin));
    EXPECT_FALSE(ThreadStamp::is_wait(pin));
  }
  EXPECT_FALSE(PinStamp::is_start(0));
}

struct Probed {
  PinningRecorder recorder;
  const PinningRecorder::Probe* start;
  const PinningRecorder::Probe* end;
  Probed() {
    static const int method = 0;
    recorder.add_probe({&method, 0, Action::park_start});
    recorder.add_probe({&method, 101, Action::park_end});
    start = recorder.probe_at(&method, 0);
    end = recorder.probe_at(&method, 101);
  }
};

TEST(PinningRecorder, FindsOnlyItsOwnLocations) {
  Probed p;
  ASSERT_NE(p.start, nullptr);
  ASSERT_NE(p.end, nullptr);
  static const int other = 0;
  EXPECT_EQ(p.recorder.probe_at(&other, 0), nullptr);
  EXPECT_EQ(p.recorder.probe_at(p.start->method, 5), nullptr);
}

TEST(PinningRecorder, TimesEachParkIntoItsBucket) {
  Probed p;
  uint64_t word = p.recorder.on_probe(*p.start, 0, 1'000'000'000);
  word = p.recorder.on_probe(*p.end, word, 1'050'000'000);  // 50 ms: on the 0.05 bound
  EXPECT_EQ(word, 0u);
  word = p.recorder.on_probe(*p.start, word, 2'000'000'000);
  p.recorder.on_probe(*p.end, word, 2'000'000'000 + 20'000'001);  // just over 20 ms
  HistogramValue h = p.recorder.histogram();
  EXPECT_EQ(h.count, 2u);
  EXPECT_NEAR(h.sum, 0.070000001, 1e-9);
  const auto& b = PinningRecorder::upper_bounds;
  for (size_t i = 0; i < h.bucket_counts.size(); ++i)
    EXPECT_EQ(h.bucket_counts[i], (i < b.size() && b[i] == 0.05) ? 2u : 0u) << "bucket " << i;
}

TEST(PinningRecorder, AParkWithoutItsStartIsNotCounted) {
  Probed p;
  const uint64_t contention = ThreadStamp::enter(5, 3);
  EXPECT_EQ(p.recorder.on_probe(*p.end, contention, 10), contention);  // left as it was
  EXPECT_EQ(p.recorder.on_probe(*p.end, 0, 10), 0u);
  EXPECT_EQ(p.recorder.histogram().count, 0u);
  // A start replaces whatever was there.
  const uint64_t word = p.recorder.on_probe(*p.start, contention, 100);
  p.recorder.on_probe(*p.end, word, 400);
  EXPECT_EQ(p.recorder.histogram().count, 1u);
  EXPECT_NEAR(p.recorder.histogram().sum, 300e-9, 1e-15);
}

// Duty cycled (JDK 21, virtual threads started fast): a pinning begun in
// this on phase stands for 2^k; one begun before it (its park straddled an
// off phase, or its end fell in one and left its start behind) is dropped.
TEST(PinningRecorder, CycledAParkOfThisPhaseCountsTwoToTheK) {
  Probed p;
  const EventPhase phase{1'000, 3};
  uint64_t word = p.recorder.on_probe(*p.start, 0, 1'500, phase);
  EXPECT_EQ(p.recorder.on_probe(*p.end, word, 2'000, phase), 0u);
  HistogramValue h = p.recorder.histogram();
  EXPECT_EQ(h.count, 8u);
  EXPECT_NEAR(h.sum, 8 * 500e-9, 1e-15);
  word = p.recorder.on_probe(*p.start, 0, 900, phase);  // before the phase began
  EXPECT_EQ(p.recorder.on_probe(*p.end, word, 2'000, phase), 0u) << "the stale start is cleared";
  EXPECT_EQ(p.recorder.histogram().count, 8u);
}

TEST(PinningRecorder, TableHasARoom) {
  PinningRecorder r;
  static const int m = 0;
  for (size_t i = 0; i < PinningRecorder::max_probes; ++i) EXPECT_TRUE(r.add_probe({&m, int64_t(i), Action::park_end}));
  EXPECT_FALSE(r.add_probe({&m, 99, Action::park_end}));
}

}  // namespace
}  // namespace jvmsight
