#include "options/near_miss.h"

#include <gtest/gtest.h>

namespace jvmsight {
namespace {

// The textbook pairs (Levenshtein 1965; the examples every reference uses).
TEST(EditDistance, TextbookPairs) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("flaw", "lawn"), 2u);
  EXPECT_EQ(edit_distance("gumbo", "gambol"), 2u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("same", "same"), 0u);
  EXPECT_EQ(edit_distance("sitting", "kitten"), edit_distance("kitten", "sitting"));
}

TEST(EditDistance, LongStringsAreNoNearMiss) {
  std::string long_key(65, 'a');
  EXPECT_EQ(edit_distance(long_key, long_key), 64u);
  EXPECT_EQ(edit_distance(std::string(64, 'a'), std::string(64, 'a')), 0u);
}

TEST(ClosestKey, PicksTheNearestWithinTwoEdits) {
  std::vector<std::string_view> keys{"host", "port", "portfile"};
  EXPECT_EQ(closest_key("prot", keys).key, "port");
  EXPECT_EQ(closest_key("portfiel", keys).key, "portfile");
  EXPECT_TRUE(closest_key("deadlock", keys).key.empty());
  EXPECT_EQ(closest_key("hots", keys).distance, 2u);
}

TEST(ClosestKey, ShortKeysNeedHalfTheirLetters) {
  // "xg" to "log" is 2 edits but more than half of 3 letters: no suggestion.
  EXPECT_EQ(edit_distance("xg", "log"), 2u);
  EXPECT_TRUE(closest_key("xg", {"log"}).key.empty());
  EXPECT_EQ(closest_key("lg", {"log"}).key, "log");
}

TEST(ClosestKey, BelowBoundsTheDistance) {
  EXPECT_EQ(closest_key("lable", {"label"}).key, "label");
  EXPECT_TRUE(closest_key("lable", {"label"}, 2).key.empty());  // 2 edits, not fewer than 2
}

}  // namespace
}  // namespace jvmsight
