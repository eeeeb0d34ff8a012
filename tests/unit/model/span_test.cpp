#include "model/span.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace jvmsight {
namespace {

SpanRecord span(int i) { return {"gc.pause", i, i + 1, {{"gc", "G1 Young Generation"}}}; }

TEST(SpanQueue, FullQueueDropsAndCountsNeverBlocks) {
  SpanQueue q(3);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(q.push(span(i)));
  auto start = std::chrono::steady_clock::now();
  for (int i = 3; i < 10003; ++i) EXPECT_FALSE(q.push(span(i)));
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(1)) << "pushing onto a full queue must return at once";
  EXPECT_EQ(q.dropped(), 10000u);
  EXPECT_EQ(q.accepted(), 3u);
  EXPECT_EQ(q.size(), 3u);
  // The oldest are kept: what was dropped is what came late.
  auto taken = q.take(10);
  ASSERT_EQ(taken.size(), 3u);
  EXPECT_EQ(taken[0].start_unix_ns, 0);
  EXPECT_EQ(taken[2].start_unix_ns, 2);
  EXPECT_TRUE(q.push(span(7))) << "room again after take";
}

TEST(SpanQueue, NoConsumerNeverBlocksTheProducer) {
  // The producer (agent thread) keeps going with nobody taking spans.
  SpanQueue q(16);
  std::thread producer([&] {
    for (int i = 0; i < 100000; ++i) q.push(span(i));
  });
  producer.join();
  EXPECT_EQ(q.size(), 16u);
  EXPECT_EQ(q.dropped(), 100000u - 16u);
}

TEST(SpanQueue, TakeIsOldestFirstAndBoundedPeekTakesNothing) {
  SpanQueue q(8);
  for (int i = 0; i < 5; ++i) q.push(span(i));
  EXPECT_EQ(q.peek().size(), 5u);
  EXPECT_EQ(q.size(), 5u);
  auto two = q.take(2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].start_unix_ns, 0);
  EXPECT_EQ(two[1].start_unix_ns, 1);
  EXPECT_EQ(q.size(), 3u);
  EXPECT_EQ(q.take(100).size(), 3u);
  EXPECT_TRUE(q.take(1).empty());
}

TEST(SpanQueue, ConcurrentProducerAndConsumerLoseNothingButDrops) {
  SpanQueue q(64);
  constexpr int total = 50000;
  std::atomic<bool> done{false};
  size_t consumed = 0;
  std::thread consumer([&] {
    while (!done.load() || q.size() > 0) consumed += q.take(32).size();
  });
  for (int i = 0; i < total; ++i) q.push(span(i));
  done = true;
  consumer.join();
  EXPECT_EQ(consumed + q.dropped(), static_cast<size_t>(total));
}

}  // namespace
}  // namespace jvmsight
