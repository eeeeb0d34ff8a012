// The ring event callbacks hand records through, as ContendedWaitRing (long
// contended waits, to the agent thread) uses it: bounded, ordered, lossless
// while it has room, drops counted, producers on many threads.
#include "common/bounded_ring.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "collectors/contention/contended_wait_ring.h"

namespace jvmsight {
namespace {

TEST(ContendedWaitRing, KeepsOrderDropsWhenFullAndCountsTheDrops) {
  ContendedWaitRing ring;
  for (size_t i = 0; i < ContendedWaitRing::capacity; ++i) EXPECT_TRUE(ring.push({i, i + 1, 7, 9}));
  EXPECT_FALSE(ring.push({0, 0, 0, 0}));
  EXPECT_EQ(ring.dropped(), 1u);
  ContendedWait w;
  for (size_t i = 0; i < ContendedWaitRing::capacity; ++i) {
    ASSERT_TRUE(ring.pop(w));
    EXPECT_EQ(w.start_ns, i);
  }
  EXPECT_FALSE(ring.pop(w));
  EXPECT_TRUE(ring.push({5, 6, 7, 8})) << "room again after the drain";
}

TEST(ContendedWaitRing, ProducersOnManyThreadsLoseNothingTheConsumerHasRoomFor) {
  ContendedWaitRing ring;
  constexpr int producers = 4, each = 20'000;
  std::atomic<bool> done{false};
  uint64_t popped = 0, sum = 0;
  std::thread consumer([&] {
    ContendedWait w;
    for (;;) {
      bool last = done.load();
      while (ring.pop(w)) {
        ++popped;
        sum += w.end_ns - w.start_ns;
        EXPECT_EQ(w.lock_hash, static_cast<int32_t>(w.start_ns % 1000));
      }
      if (last) break;
    }
  });
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p)
    threads.emplace_back([&, p] {
      for (uint64_t i = 0; i < each; ++i) {
        uint64_t start = static_cast<uint64_t>(p) * 1'000'000 + i;
        while (!ring.push({start, start + 3, static_cast<int32_t>(start % 1000), p})) std::this_thread::yield();
      }
    });
  for (auto& t : threads) t.join();
  done = true;
  consumer.join();
  EXPECT_EQ(popped, uint64_t{producers} * each);
  EXPECT_EQ(sum, 3u * producers * each) << "no record torn";
}

}  // namespace
}  // namespace jvmsight
