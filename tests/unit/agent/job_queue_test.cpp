#include "agent/job_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>

namespace jvmsight {
namespace {

using namespace std::chrono_literals;

struct Nothing : JobQueue::Job {
  void run() override {}
};
struct Throws : JobQueue::Job {
  void run() override { throw std::runtime_error("boom"); }
};

// Runs the queue on a thread, as the agent thread does.
struct Runner {
  JobQueue& q;
  std::thread t;
  explicit Runner(JobQueue& queue)
      : q(queue), t([this] {
          while (q.run_until(JobQueue::Clock::now() + 50ms)) {
          }
        }) {}
  ~Runner() {
    q.close();
    t.join();
  }
};

TEST(JobQueue, CallReturnsTheResultFromTheRunningThread) {
  JobQueue q(4);
  Runner r(q);
  std::thread::id caller = std::this_thread::get_id();
  auto result = q.call([caller] { return std::this_thread::get_id() != caller; }, 5s);
  ASSERT_TRUE(result.has_value());
  EXPECT_TRUE(*result);
}

TEST(JobQueue, FullQueueRefusesAtOnce) {
  JobQueue q(2);  // nobody runs it
  EXPECT_TRUE(q.post(std::make_unique<Nothing>()));
  EXPECT_TRUE(q.post(std::make_unique<Nothing>()));
  EXPECT_FALSE(q.post(std::make_unique<Nothing>()));
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(q.call([] { return 1; }, 5s).has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 1s);  // refused, not waited out
}

TEST(JobQueue, CallTimesOutWhenNobodyRuns) {
  JobQueue q(4);
  EXPECT_FALSE(q.call([] { return 1; }, 50ms).has_value());
}

TEST(JobQueue, CloseWakesWaitingCallersAtOnce) {
  JobQueue q(4);
  std::thread closer([&] {
    std::this_thread::sleep_for(50ms);
    q.close();
  });
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(q.call([] { return 1; }, 30s).has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  closer.join();
  EXPECT_FALSE(q.post(std::make_unique<Nothing>()));
  EXPECT_FALSE(q.run_until(JobQueue::Clock::now()));
}

TEST(JobQueue, AThrowingJobDoesNotStopTheQueue) {
  JobQueue q(4);
  Runner r(q);
  EXPECT_TRUE(q.post(std::make_unique<Throws>()));
  EXPECT_EQ(q.call([] { return 7; }, 5s), 7);
}

TEST(Wakeup, ASignalWakesTheWaiterOnceAndTheDeadlineEndsAWait) {
  Wakeup w;
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(w.wait_until(start + 30ms));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 30ms);
  w.signal();
  w.signal();  // signals before a wait collapse into one
  EXPECT_TRUE(w.wait_until(std::chrono::steady_clock::now() + 5s));
  EXPECT_FALSE(w.wait_until(std::chrono::steady_clock::now() + 10ms));
  std::thread signaller([&] {
    std::this_thread::sleep_for(20ms);
    w.signal();
  });
  start = std::chrono::steady_clock::now();
  EXPECT_TRUE(w.wait_until(start + 30s));
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
  signaller.join();
}

}  // namespace
}  // namespace jvmsight
