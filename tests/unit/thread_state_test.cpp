#include "collectors/threads/thread_state.h"

#include <gtest/gtest.h>

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

TEST(ThreadState, NamesMatchThreadStateEnum) {
  EXPECT_EQ(name_of(JavaThreadState::TIMED_WAITING), "TIMED_WAITING");
  EXPECT_EQ(name_of(JavaThreadState::NEW), "NEW");
  EXPECT_EQ(name_of(ThreadSubState::object_wait), "object_wait");
}

}  // namespace
}  // namespace jvmsight
