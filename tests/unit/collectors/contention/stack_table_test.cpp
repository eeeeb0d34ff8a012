#include "collectors/contention/stack_table.h"

#include <gtest/gtest.h>

#include <set>
#include <thread>
#include <vector>

namespace jvmsight {
namespace {

// Frames whose method ids are made-up addresses: the table never follows them.
std::vector<jvmtiFrameInfo> stack(uintptr_t seed, uint32_t depth) {
  std::vector<jvmtiFrameInfo> frames(depth);
  for (uint32_t i = 0; i < depth; ++i)
    frames[i] = {reinterpret_cast<jmethodID>(0x1000 + seed * 64 + i), static_cast<jlocation>(i * 3)};
  return frames;
}

struct Seen {
  uint32_t depth = 0;
  uint64_t weight = 0, delay = 0;
  std::vector<jvmtiFrameInfo> frames;
};

std::vector<Seen> read(const StackTable& t) {
  std::vector<Seen> by_id(StackTable::capacity + StackTable::first_entry);
  t.for_each([&](uint32_t id, const jvmtiFrameInfo* f, uint32_t depth, uint64_t w, uint64_t d) {
    by_id[id] = {depth, w, d, std::vector<jvmtiFrameInfo>(f, f + depth)};
  });
  return by_id;
}

TEST(StackTable, SameFramesSameIdAndTheirFramesKept) {
  StackTable t;
  auto a = stack(1, 5), b = stack(2, 5);
  uint32_t ia = t.intern(a.data(), 5), ib = t.intern(b.data(), 5);
  EXPECT_GE(ia, StackTable::first_entry);
  EXPECT_NE(ia, ib);
  EXPECT_EQ(t.intern(a.data(), 5), ia);
  EXPECT_NE(t.intern(a.data(), 4), ia) << "a prefix is another stack";
  a[2].location += 1;
  EXPECT_NE(t.intern(a.data(), 5), ia) << "another line is another stack";
  t.add(ib, 3 * StackTable::weight_one, 700);
  t.add(ib, StackTable::weight_one, 300);
  auto seen = read(t);
  EXPECT_EQ(seen[ib].depth, 5u);
  EXPECT_EQ(seen[ib].weight, 4 * StackTable::weight_one);
  EXPECT_EQ(seen[ib].delay, 1000u);
  EXPECT_EQ(seen[ib].frames[4].method, b[4].method);
  EXPECT_EQ(seen[ib].frames[4].location, b[4].location);
  EXPECT_EQ(t.kept(), 4u);
  EXPECT_EQ(t.dropped(), 0u);
}

TEST(StackTable, DeepStacksKeepTheirLeafMostFrames) {
  StackTable t;
  auto deep = stack(9, 100);
  uint32_t id = t.intern(deep.data(), 100);
  auto seen = read(t);
  ASSERT_EQ(seen[id].depth, StackTable::max_depth);
  EXPECT_EQ(seen[id].frames[0].method, deep[0].method);
}

TEST(StackTable, AFullTableCountsUnderOtherAndTheDrop) {
  StackTable t;
  std::set<uint32_t> ids;
  uint32_t others = 0;
  for (uintptr_t i = 0; i < StackTable::capacity + 1000; ++i) {
    auto s = stack(i, 3);
    uint32_t id = t.intern(s.data(), 3);
    if (id == StackTable::other) {
      ++others;
      t.add(id, StackTable::weight_one, 10);
    } else {
      ids.insert(id);
    }
  }
  EXPECT_EQ(ids.size(), t.kept());
  EXPECT_GE(others, 1000u);
  EXPECT_EQ(t.dropped(), others);
  EXPECT_GT(t.kept(), StackTable::capacity * 3 / 4) << "probing gave up on a table mostly empty";
  auto seen = read(t);
  EXPECT_EQ(seen[StackTable::other].weight, others * StackTable::weight_one);
  EXPECT_EQ(t.intern(nullptr, 0), StackTable::other);
}

// A wait with no Java frame is a stack of one frame of no method, never
// the full table's other.
TEST(StackTable, NoFramesIsAStackOfItsOwn) {
  StackTable t;
  const uint32_t id = t.intern(nullptr, 0);
  EXPECT_GE(id, StackTable::first_entry);
  EXPECT_EQ(t.intern(nullptr, 0), id);
  EXPECT_EQ(t.dropped(), 0u);
  auto seen = read(t);
  ASSERT_EQ(seen[id].frames.size(), 1u);
  EXPECT_EQ(seen[id].frames[0].method, nullptr);
}

TEST(StackTable, ThreadsInterningTheSameStacksAgreeOnIds) {
  StackTable t;
  constexpr int threads = 4, stacks = 500, rounds = 20;
  std::vector<std::vector<uint32_t>> ids(threads, std::vector<uint32_t>(stacks));
  std::vector<std::thread> workers;
  for (int w = 0; w < threads; ++w)
    workers.emplace_back([&, w] {
      for (int r = 0; r < rounds; ++r)
        for (int s = 0; s < stacks; ++s) {
          auto frames = stack(static_cast<uintptr_t>(s), 8);
          ids[w][s] = t.intern(frames.data(), 8);
          t.add(ids[w][s], StackTable::weight_one, 1);
        }
    });
  for (auto& w : workers) w.join();
  for (int w = 1; w < threads; ++w) EXPECT_EQ(ids[w], ids[0]);
  EXPECT_EQ(t.kept(), static_cast<uint32_t>(stacks));
  auto seen = read(t);
  for (int s = 0; s < stacks; ++s) EXPECT_EQ(seen[ids[0][s]].delay, uint64_t{threads * rounds}) << s;
}

}  // namespace
}  // namespace jvmsight
