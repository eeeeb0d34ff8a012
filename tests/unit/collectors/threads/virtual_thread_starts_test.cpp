#include "collectors/threads/virtual_thread_starts.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

// At open the JVM had issued 40 ids and started 12 platform threads.
constexpr int64_t ids0 = 40;
constexpr uint64_t platform0 = 12;

TEST(VirtualThreadStarts, IdsIssuedLessPlatformStartsSinceOpen) {
  EXPECT_EQ(VirtualThreadStarts::count(ids0, ids0, platform0, platform0, 0), 0u);
  // 1,000 virtual threads and 3 platform ones made and started.
  EXPECT_EQ(VirtualThreadStarts::count(ids0 + 1003, ids0, platform0 + 3, platform0, 0), 1000u);
}

// A platform thread between its construction (an id) and its start (a
// ThreadStart) reads as virtual; once started, the count must not go back.
TEST(VirtualThreadStarts, NeverGoesBack) {
  const uint64_t before = VirtualThreadStarts::count(ids0 + 11, ids0, platform0, platform0, 0);
  EXPECT_EQ(before, 11u);
  EXPECT_EQ(VirtualThreadStarts::count(ids0 + 11, ids0, platform0 + 1, platform0, before), 11u);
  EXPECT_EQ(VirtualThreadStarts::count(ids0 + 12, ids0, platform0 + 1, platform0, before), 11u);
  EXPECT_EQ(VirtualThreadStarts::count(ids0 + 13, ids0, platform0 + 1, platform0, before), 12u);
}

// More ThreadStarts than ids (threads made before open, started after): zero, not a wrap.
TEST(VirtualThreadStarts, PlatformStartsOfOlderThreadsDoNotWrap) {
  EXPECT_EQ(VirtualThreadStarts::count(ids0 + 2, ids0, platform0 + 5, platform0, 0), 0u);
  EXPECT_EQ(VirtualThreadStarts::count(ids0, ids0 + 1, platform0, platform0, 0), 0u);
}

}  // namespace
}  // namespace jvmsight
