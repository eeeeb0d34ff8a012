#include "collectors/lock_graph/wait_episodes.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace jvmsight {
namespace {

using Clock = WaitEpisodes::Clock;
using std::chrono::milliseconds;
using std::chrono::seconds;

LockWait on(ThreadKey thread, int32_t lock, LockKind kind = LockKind::monitor, ThreadKey owner = 99) {
  LockWait w;
  w.thread = thread;
  w.kind = kind;
  w.lock_hash = lock;
  w.owner = owner;
  return w;
}

LockWait virtual_on(ThreadKey thread, int32_t lock) {
  LockWait w = on(thread, lock, LockKind::juc);
  w.virtual_thread = true;
  return w;
}

// Runs checks every 500 ms like the deadlock check, answering count reads
// from `counts` (the JVM's blocked + waited count per thread).
struct Checks {
  WaitEpisodes episodes{seconds(60)};
  Clock::time_point now = Clock::time_point{} + seconds(1000);
  std::map<ThreadKey, int64_t> counts;
  size_t counts_read = 0;

  void check(const std::vector<LockWait>& waits, WaitCoverage coverage = {}) {
    episodes.observe(waits, coverage, now);
    std::vector<ThreadKey> due = episodes.due_for_count(now);
    std::vector<int64_t> answer;
    for (ThreadKey t : due) answer.push_back(counts.count(t) ? counts[t] : -1);
    counts_read += due.size();
    episodes.counted(due, answer, now);
  }
  // Checks every 500 ms for `d`, the same waits each time.
  void run(Clock::duration d, const std::vector<LockWait>& waits, WaitCoverage coverage = {}) {
    for (Clock::time_point end = now + d; now < end;) {
      now += milliseconds(500);
      check(waits, coverage);
    }
  }
  size_t stuck() const {
    size_t n = 0;
    for (const auto& [t, e] : episodes.all()) n += episodes.stuck(e, now);
    return n;
  }
};

TEST(WaitEpisodes, SameLockPastTheThresholdIsStuckAndReportedOnce) {
  Checks c;
  c.counts = {{1, 5}, {2, 7}};
  c.run(seconds(59), {on(1, 100), on(2, 200, LockKind::juc)});
  EXPECT_EQ(c.stuck(), 0u);
  EXPECT_TRUE(c.episodes.newly_stuck(c.now).empty());
  c.run(seconds(2), {on(1, 100), on(2, 200, LockKind::juc)});
  EXPECT_EQ(c.stuck(), 2u);
  auto stuck = c.episodes.newly_stuck(c.now);
  ASSERT_EQ(stuck.size(), 2u);
  EXPECT_EQ(stuck[0].wait.thread, 1);
  EXPECT_EQ(stuck[1].wait.kind, LockKind::juc);
  EXPECT_GE(c.now - stuck[0].since, seconds(60));
  c.run(seconds(30), {on(1, 100), on(2, 200, LockKind::juc)});
  EXPECT_TRUE(c.episodes.newly_stuck(c.now).empty());
  EXPECT_EQ(c.stuck(), 2u);
}

TEST(WaitEpisodes, ReleasedMeansNotStuckAtTheNextCheck) {
  Checks c;
  c.counts = {{1, 5}};
  c.run(seconds(61), {on(1, 100)});
  EXPECT_EQ(c.stuck(), 1u);
  c.run(milliseconds(500), {});
  EXPECT_EQ(c.stuck(), 0u);
  EXPECT_TRUE(c.episodes.all().empty());
}

// A storm: the thread is blocked on the same lock at every check, but the
// JVM's count shows it got the lock and blocked again in between.
TEST(WaitEpisodes, WaitingAgainBetweenChecksIsNoStuckThread) {
  Checks c;
  for (int i = 0; i < 400; ++i) {  // 200 s of checks
    c.counts[1] += 3;
    c.run(milliseconds(500), {on(1, 100)});
    ASSERT_EQ(c.stuck(), 0u) << i;
  }
  EXPECT_TRUE(c.episodes.newly_stuck(c.now).empty());
  // And counting is bounded: at first sight, then once per threshold.
  EXPECT_LE(c.counts_read, 200u / 60 + 2);
}

TEST(WaitEpisodes, AnotherLockIsAnotherEpisode) {
  Checks c;
  c.counts = {{1, 5}};
  c.run(seconds(40), {on(1, 100)});
  c.run(seconds(40), {on(1, 200)});
  EXPECT_EQ(c.stuck(), 0u);
  c.run(seconds(21), {on(1, 200)});
  EXPECT_EQ(c.stuck(), 1u);
}

TEST(WaitEpisodes, MonitorWaitsReusedStandAsTheyWere) {
  Checks c;
  c.counts = {{1, 5}, {2, 6}};
  c.run(seconds(30), {on(1, 100), on(2, 200, LockKind::juc)});
  // Nothing blocked anew: the check reused its monitor waits and passes only j.u.c. ones.
  c.run(seconds(31), {on(2, 200, LockKind::juc)}, WaitCoverage{false, true});
  EXPECT_EQ(c.stuck(), 2u);
  // A j.u.c. wait that is not read again has ended.
  c.run(milliseconds(500), {on(1, 100)}, WaitCoverage{true, true});
  EXPECT_EQ(c.episodes.all().count(2), 0u);
}

TEST(WaitEpisodes, VirtualThreadsHaveNoCountAndStandBetweenWalks) {
  Checks c;
  c.run(seconds(30), {virtual_on(7, 300)});
  c.run(seconds(31), {}, WaitCoverage{true, false});  // not walked
  EXPECT_EQ(c.counts_read, 0u);
  EXPECT_EQ(c.stuck(), 1u);
  c.run(milliseconds(500), {});  // walked: gone
  EXPECT_EQ(c.stuck(), 0u);
}

TEST(WaitEpisodes, ThreadThatEndedIsNotCountedAsStuck) {
  Checks c;  // no count: ThreadMXBean no longer knows the thread
  c.run(seconds(61), {on(1, 100)});
  EXPECT_EQ(c.stuck(), 0u);
}

TEST(WaitEpisodes, CountsAreBoundedPerCheckAndThoseLeftStartLater) {
  Checks c;
  std::vector<LockWait> pileup;
  for (ThreadKey t = 1; t <= 1000; ++t) {
    pileup.push_back(on(t, 100));
    c.counts[t] = t;
  }
  c.now += milliseconds(500);
  c.check(pileup);
  EXPECT_EQ(c.counts_read, WaitEpisodes::max_counts_per_check);
  c.run(seconds(2), pileup);
  EXPECT_EQ(c.counts_read, 1000u);
  // Those counted later: their wait counts from then.
  c.run(seconds(58), pileup);
  EXPECT_EQ(c.stuck(), WaitEpisodes::max_counts_per_check);
  c.run(seconds(2), pileup);
  EXPECT_EQ(c.stuck(), 1000u);
}

TEST(WaitEpisodes, OwnerChangeKeepsTheEpisode) {
  Checks c;
  c.counts = {{1, 5}};
  c.run(seconds(30), {on(1, 100, LockKind::juc, 50)});
  c.run(seconds(31), {on(1, 100, LockKind::juc, 51)});
  EXPECT_EQ(c.stuck(), 1u);
  EXPECT_EQ(*c.episodes.all().at(1).wait.owner, 51);
}

TEST(WaitEpisodes, NewEpisodeIsExaminedAfresh) {
  Checks c;
  c.counts = {{1, 5}};
  c.run(seconds(1), {on(1, 100)});
  c.episodes.all().at(1).examined = true;
  c.counts[1] = 6;
  c.run(seconds(61), {on(1, 100)});
  EXPECT_FALSE(c.episodes.all().at(1).examined);
}

}  // namespace
}  // namespace jvmsight
