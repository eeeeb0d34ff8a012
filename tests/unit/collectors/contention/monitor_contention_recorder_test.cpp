// The contention recorder the monitor callbacks write: wait buckets per
// lock slot, the table's overflow, the thread-local stamps, lock tags.
#include "collectors/contention/monitor_contention_recorder.h"

#include <gtest/gtest.h>

#include "tests/unit/collectors/contention/contention_fakes.h"

namespace jvmsight {
namespace {

using test::contend;

TEST(MonitorContentionRecorder, BucketsByWaitTimeAndClaimsEachLockOnce) {
  MonitorContentionRecorder r;
  EXPECT_TRUE(contend(r, 42, 5'000));            // 5 us: first bucket; first contention
  EXPECT_FALSE(contend(r, 42, 2'000'000));       // 2 ms
  EXPECT_FALSE(contend(r, 42, 20'000'000'000));  // 20 s: +Inf
  std::map<int32_t, WaitTotals> seen;
  r.drain([&](int32_t h, const WaitTotals& t) { seen[h].add(t); });
  ASSERT_EQ(seen.size(), 1u);
  const WaitTotals& t = seen[42];
  EXPECT_EQ(t.count, 3u);
  EXPECT_EQ(t.sum_ns, 20'002'005'000u);
  EXPECT_EQ(t.buckets[0], 1u);
  EXPECT_EQ(t.buckets[4], 1u);  // (1 ms, 5 ms]
  EXPECT_EQ(t.buckets[wait_bucket_count], 1u);
  seen.clear();
  r.drain([&](int32_t h, const WaitTotals& t2) { seen[h].add(t2); });
  EXPECT_TRUE(seen.empty()) << "drained counts are taken once";
}

TEST(MonitorContentionRecorder, FullTableOverflowsIntoHashZero) {
  MonitorContentionRecorder r;
  for (int32_t h = 1; h <= static_cast<int32_t>(MonitorContentionRecorder::slot_count) + 100; ++h) contend(r, h, 1000);
  EXPECT_GE(r.overflowed(), 100u);
  uint64_t total = 0, overflow = 0;
  r.drain([&](int32_t h, const WaitTotals& t) {
    total += t.count;
    if (h == 0) overflow += t.count;
  });
  EXPECT_EQ(total, MonitorContentionRecorder::slot_count + 100) << "nothing is lost, only merged";
  EXPECT_EQ(overflow, r.overflowed());
}

TEST(ThreadStamp, EnterKeepsSlotAndTimesAcrossTheWrapOfItsClockBits) {
  constexpr uint64_t wrap = ThreadStamp::enter_mask + 1;  // 2^46 ns
  uint64_t start = wrap - 300;                            // 300 ns before the kept bits wrap
  uint64_t s = ThreadStamp::enter(start, MonitorContentionRecorder::overflow_slot);
  EXPECT_TRUE(ThreadStamp::is_enter(s));
  EXPECT_FALSE(ThreadStamp::is_wait(s));
  EXPECT_EQ(ThreadStamp::slot(s), MonitorContentionRecorder::overflow_slot);
  EXPECT_EQ(ThreadStamp::since(s, start + 1'000), 1'000u);
  EXPECT_EQ(ThreadStamp::slot(ThreadStamp::enter(123'456'789'000, 7)), 7u);
  EXPECT_EQ(ThreadStamp::since(ThreadStamp::enter(123'456'789'000, 7), 123'456'789'000 + 5'000'000), 5'000'000u);
}

TEST(ThreadStamp, WaitIsNeverMistakenForAnEnterOrForNone) {
  uint64_t w = ThreadStamp::wait(0);  // a start at clock value 0 is still a stamp
  EXPECT_TRUE(ThreadStamp::is_wait(w));
  EXPECT_FALSE(ThreadStamp::is_enter(w));
  EXPECT_FALSE(ThreadStamp::is_wait(0));
  EXPECT_FALSE(ThreadStamp::is_enter(0));
  uint64_t start = 987'654'321'000;
  EXPECT_NEAR(static_cast<double>(ThreadStamp::since(ThreadStamp::wait(start), start + 2'000'000'000)), 2e9, 1);
}

TEST(MonitorContentionRecorder, StampFromBeforeThePhaseIsNeverTaken) {
  MonitorContentionRecorder r;
  uint64_t t = 1'000'000'000'000;
  uint64_t stamp = ThreadStamp::enter(t, 1);
  EXPECT_TRUE(r.stamp_usable(stamp, t + 10)) << "events on since the start: every Enter writes one";
  // The events went off with this Entered still to come, and on again: the
  // thread's next Entered may follow an Enter of the off phase.
  r.start_phase(t + 20);
  EXPECT_FALSE(r.stamp_usable(stamp, t + 30));
  EXPECT_TRUE(r.stamp_usable(ThreadStamp::enter(t + 40, 1), t + 50));
  EXPECT_FALSE(r.stamp_usable(ThreadStamp::enter(t + 15, 1), t + 18)) << "clock read before the phase began";
}

TEST(MonitorContentionRecorder, LockTagRoundTripsTheHash) {
  EXPECT_EQ(hash_of_lock_tag(lock_tag(-5)), -5);
  EXPECT_NE(lock_tag(0), 0);
}

}  // namespace
}  // namespace jvmsight
