// The deadlock check's filter for contention storms: only threads still in
// the contended entry they were in at the previous check can be deadlocked.
#include "collectors/lock_graph/blocked_progress.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

TEST(BlockedProgress, AThreadIsUnmovedOnlyWhenBlockedBothTimesWithTheSameCount) {
  BlockedProgress p;
  // First look: nothing to compare with, nobody is known to be stuck.
  EXPECT_EQ(p.unmoved({7, 3, 5}, {10, 4, 1}), (std::vector<bool>{false, false, false}));
  // 7 entered again (storm), 3 stayed in its entry (stuck), 5 is no longer
  // blocked, 9 blocked for the first time.
  EXPECT_EQ(p.unmoved({3, 7, 9}, {4, 11, 2}), (std::vector<bool>{true, false, false}));
  // Only the previous look counts: 5 was not blocked then, so its old count
  // says nothing.
  EXPECT_EQ(p.unmoved({5, 3, 9}, {1, 4, 2}), (std::vector<bool>{false, true, true}));
}

TEST(BlockedProgress, AfterForgettingNobodyIsKnownToBeStuck) {
  BlockedProgress p;
  p.unmoved({1, 2}, {5, 3});
  p.forget();
  EXPECT_EQ(p.unmoved({1, 2}, {5, 3}), (std::vector<bool>{false, false}));
  EXPECT_EQ(p.unmoved({1, 2}, {5, 3}), (std::vector<bool>{true, true}));
}

TEST(BlockedProgress, AnUnknownCountMightBeStuck) {
  BlockedProgress p;
  // The JVM did not say (the thread ended meanwhile, or the call failed):
  // its monitor edge is read rather than a deadlock missed.
  EXPECT_EQ(p.unmoved({1, 2}, {BlockedProgress::unknown, 3}), (std::vector<bool>{true, false}));
  EXPECT_EQ(p.unmoved({1, 2}, {5, 3}), (std::vector<bool>{false, true}));
  EXPECT_EQ(p.unmoved({1, 2}, {}), (std::vector<bool>{true, true}));
}

}  // namespace
}  // namespace jvmsight
