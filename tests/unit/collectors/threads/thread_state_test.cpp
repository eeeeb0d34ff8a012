#include "collectors/threads/thread_state.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace jvmsight {
namespace {

constexpr jint alive = JVMTI_THREAD_STATE_ALIVE;

TEST(ThreadState, JavaStatesFollowTheJvmtiMask) {
  EXPECT_EQ(java_state_of(0), JavaThreadState::NEW);
  EXPECT_EQ(java_state_of(JVMTI_THREAD_STATE_TERMINATED), JavaThreadState::TERMINATED);
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_RUNNABLE), JavaThreadState::RUNNABLE);
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE),
            JavaThreadState::RUNNABLE);
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER), JavaThreadState::BLOCKED);
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_INDEFINITELY |
                          JVMTI_THREAD_STATE_PARKED),
            JavaThreadState::WAITING);
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT |
                          JVMTI_THREAD_STATE_SLEEPING),
            JavaThreadState::TIMED_WAITING);
  // Suspension and interrupts do not change Thread.State.
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER | JVMTI_THREAD_STATE_SUSPENDED |
                          JVMTI_THREAD_STATE_INTERRUPTED),
            JavaThreadState::BLOCKED);
}

TEST(ThreadState, UndefinedCombinationsFallBackLikeThreadGetState) {
  EXPECT_EQ(java_state_of(alive), JavaThreadState::RUNNABLE);
  EXPECT_EQ(java_state_of(alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT),
            JavaThreadState::TIMED_WAITING);
}

TEST(ThreadState, SubStatesAreIndependentBits) {
  jint st = alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_INDEFINITELY | JVMTI_THREAD_STATE_PARKED |
            JVMTI_THREAD_STATE_SUSPENDED;
  EXPECT_TRUE(has_sub_state(st, ThreadSubState::parked));
  EXPECT_TRUE(has_sub_state(st, ThreadSubState::suspended));
  EXPECT_FALSE(has_sub_state(st, ThreadSubState::sleeping));
  EXPECT_FALSE(has_sub_state(st, ThreadSubState::object_wait));
  EXPECT_FALSE(has_sub_state(st, ThreadSubState::native));
  EXPECT_TRUE(has_sub_state(alive | JVMTI_THREAD_STATE_IN_OBJECT_WAIT, ThreadSubState::object_wait));
  EXPECT_TRUE(has_sub_state(alive | JVMTI_THREAD_STATE_IN_NATIVE, ThreadSubState::native));
}

TEST(ThreadState, CountsAddUp) {
  ThreadStateCounts c;
  c.add(alive | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE);
  c.add(alive | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER);
  c.add(alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT | JVMTI_THREAD_STATE_SLEEPING);
  c.add(alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT | JVMTI_THREAD_STATE_SLEEPING);
  EXPECT_EQ(c.of(JavaThreadState::RUNNABLE), 1u);
  EXPECT_EQ(c.of(JavaThreadState::BLOCKED), 1u);
  EXPECT_EQ(c.of(JavaThreadState::TIMED_WAITING), 2u);
  EXPECT_EQ(c.of(JavaThreadState::WAITING), 0u);
  EXPECT_EQ(c.of(ThreadSubState::sleeping), 2u);
  EXPECT_EQ(c.of(ThreadSubState::native), 1u);
}

// A tally must count exactly what adding thread by thread counts, also
// with more distinct words than it has slots and with the daemon flag
// splitting equal words.
void expect_tally_equals_direct_adds(const std::vector<std::pair<jint, bool>>& threads) {
  ThreadStateCounts direct, tallied;
  StatusTally tally(tallied);
  for (const auto& [status, daemon] : threads) {
    direct.add(status, daemon);
    tally.add(status, daemon);
  }
  tally.flush();
  EXPECT_EQ(tallied.by_state, direct.by_state);
  EXPECT_EQ(tallied.daemon_by_state, direct.daemon_by_state);
  EXPECT_EQ(tallied.by_sub_state, direct.by_sub_state);
}

TEST(ThreadState, ATallyCountsWhatAddingEachThreadCounts) {
  const jint parked =
      alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_INDEFINITELY | JVMTI_THREAD_STATE_PARKED;
  const jint sleeping =
      alive | JVMTI_THREAD_STATE_WAITING | JVMTI_THREAD_STATE_WAITING_WITH_TIMEOUT | JVMTI_THREAD_STATE_SLEEPING;
  const jint blocked = alive | JVMTI_THREAD_STATE_BLOCKED_ON_MONITOR_ENTER;
  const jint native = alive | JVMTI_THREAD_STATE_RUNNABLE | JVMTI_THREAD_STATE_IN_NATIVE;
  std::vector<std::pair<jint, bool>> few;
  for (int i = 0; i < 1000; ++i) few.push_back({i % 7 == 0 ? blocked : i % 3 == 0 ? sleeping : parked, i % 2 == 0});
  few.push_back({native, false});
  expect_tally_equals_direct_adds(few);
  EXPECT_EQ(few.size(), 1001u);

  // Every sub-state bit combination, suspended and interrupted variants
  // included: far more distinct words than slots.
  std::vector<std::pair<jint, bool>> many;
  const jint bits[] = {JVMTI_THREAD_STATE_SUSPENDED, JVMTI_THREAD_STATE_INTERRUPTED,    JVMTI_THREAD_STATE_IN_NATIVE,
                       JVMTI_THREAD_STATE_PARKED,    JVMTI_THREAD_STATE_IN_OBJECT_WAIT, JVMTI_THREAD_STATE_SLEEPING};
  for (int round = 0; round < 3; ++round)
    for (int mask = 0; mask < 64; ++mask) {
      jint st = mask % 2 ? sleeping : blocked;
      for (int b = 0; b < 6; ++b)
        if (mask & (1 << b)) st |= bits[b];
      many.push_back({st, (mask + round) % 3 == 0});
    }
  expect_tally_equals_direct_adds(many);

  ThreadStateCounts none;
  StatusTally empty(none);
  empty.flush();
  EXPECT_EQ(none.of(JavaThreadState::RUNNABLE), 0u);
}

TEST(ThreadState, NamesMatchThreadStateEnum) {
  EXPECT_EQ(name_of(JavaThreadState::TIMED_WAITING), "TIMED_WAITING");
  EXPECT_EQ(name_of(JavaThreadState::NEW), "NEW");
  EXPECT_EQ(name_of(ThreadSubState::object_wait), "object_wait");
}

}  // namespace
}  // namespace jvmsight
