// The block profile's stack table: the same frames are one stack, a full
// table counts new stacks under "other" with the drop counted, and the
// snapshot rounds the weights to waits.
#include "collectors/contention/named_stack_table.h"

#include <gtest/gtest.h>

#include <vector>

namespace jvmsight {
namespace {

std::vector<ProfileFrame> frames(uint32_t seed, size_t depth) {
  std::vector<ProfileFrame> f;
  for (size_t i = 0; i < depth; ++i) f.push_back({seed * 100 + static_cast<uint32_t>(i), static_cast<int32_t>(i)});
  return f;
}

TEST(NamedStackTable, SameFramesAreOneStackAndDeepOnesKeepTheirLeaves) {
  NamedStackTable t({99, 0});
  const uint32_t a = t.intern(frames(1, 3));
  EXPECT_GE(a, NamedStackTable::first_entry);
  EXPECT_EQ(t.intern(frames(1, 3)), a);
  EXPECT_NE(t.intern(frames(2, 3)), a);
  EXPECT_EQ(t.intern({}), NamedStackTable::other);
  const uint32_t deep = t.intern(frames(3, NamedStackTable::max_depth + 10));
  EXPECT_EQ(t.intern(frames(3, NamedStackTable::max_depth)), deep);
  EXPECT_EQ(t.kept(), 3u);
}

TEST(NamedStackTable, AFullTableCountsNewStacksUnderOther) {
  NamedStackTable t({99, 0});
  for (uint32_t i = 0; i < NamedStackTable::capacity; ++i) ASSERT_NE(t.intern(frames(i, 1)), NamedStackTable::other);
  const uint32_t late = t.intern(frames(NamedStackTable::capacity, 1));
  EXPECT_EQ(late, NamedStackTable::other);
  EXPECT_EQ(t.dropped(), 1u);
  t.add(late, 3 * NamedStackTable::weight_one, 30);
  t.add(NamedStackTable::first_entry, NamedStackTable::weight_one / 2 + 1, 5);  // rounds to 1 wait
  ContentionProfile p;
  t.append_to(p);
  ASSERT_EQ(p.stacks.size(), 2u);  // stacks without waits are left out
  EXPECT_EQ(p.stacks[0].contentions, 1);
  EXPECT_EQ(p.stacks[0].delay_ns, 5);
  EXPECT_EQ(p.stacks[1].id, NamedStackTable::other);
  EXPECT_EQ(p.stacks[1].frames[0].function, 99u);
  EXPECT_EQ(p.stacks[1].contentions, 3);
  EXPECT_EQ(p.dropped, 1u);
}

}  // namespace
}  // namespace jvmsight
