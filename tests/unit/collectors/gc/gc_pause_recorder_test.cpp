#include "collectors/gc/gc_pause_recorder.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace jvmsight {
namespace {

TEST(GcPauseRecorder, RecordsStartAndFinishInOrder) {
  auto r = std::make_unique<GcPauseRecorder>();
  for (int i = 0; i < 3; ++i) {
    r->on_start();
    r->on_finish();
  }
  std::vector<RawGcPause> seen;
  EXPECT_EQ(r->drain([&](const RawGcPause& p) { seen.push_back(p); }), 3u);
  ASSERT_EQ(seen.size(), 3u);
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].duration_ns(), 0);
    EXPECT_GT(seen[i].start_wall_ns, 1'600'000'000'000'000'000) << "wall clock in Unix ns";
    EXPECT_GE(seen[i].end_wall_ns, seen[i].start_wall_ns);
    if (i > 0) {
      EXPECT_GE(seen[i].start_mono_ns, seen[i - 1].end_mono_ns);
    }
  }
  EXPECT_EQ(r->drain([](const RawGcPause&) {}), 0u);
  EXPECT_EQ(r->finished(), 3u);
}

TEST(GcPauseRecorder, FinishWithoutStartIsIgnored) {
  auto r = std::make_unique<GcPauseRecorder>();
  r->on_finish();  // attached in the middle of a pause
  EXPECT_EQ(r->finished(), 0u);
  EXPECT_EQ(r->drain([](const RawGcPause&) {}), 0u);
}

TEST(GcPauseRecorder, FullRingDropsAndCountsNeverOverwrites) {
  auto r = std::make_unique<GcPauseRecorder>();
  for (size_t i = 0; i < GcPauseRecorder::capacity + 10; ++i) {
    r->on_start();
    r->on_finish();
  }
  EXPECT_EQ(r->dropped(), 10u);
  EXPECT_EQ(r->finished(), GcPauseRecorder::capacity + 10);
  int64_t last = 0;
  size_t n = r->drain([&](const RawGcPause& p) {
    EXPECT_GE(p.start_mono_ns, last) << "oldest first, nothing overwritten";
    last = p.start_mono_ns;
  });
  EXPECT_EQ(n, GcPauseRecorder::capacity);
  r->on_start();
  r->on_finish();
  EXPECT_EQ(r->drain([](const RawGcPause&) {}), 1u) << "room again after a drain";
}

}  // namespace
}  // namespace jvmsight
