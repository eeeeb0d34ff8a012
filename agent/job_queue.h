#pragma once
// Work handed to the agent thread by threads that must not touch the JVM
// (the HTTP thread, the OTLP pusher). Bounded: a caller that finds it full
// or closed gets an immediate no, never an unbounded wait.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace jvmsight {

// One thread waits until another signals, through an eventfd, not a futex:
// beside a JVM's thousands of parked threads a futex wake is slow, for the
// reason exporters/http/http_server.h gives; an eventfd's wait queue holds
// only its own waiter. Falls back to a condition variable if no eventfd can
// be made.
class Wakeup {
 public:
  using Clock = std::chrono::steady_clock;
  Wakeup();
  ~Wakeup();
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  void signal();
  // True once signalled (which it consumes), false at the deadline.
  bool wait_until(Clock::time_point deadline);

 private:
  int fd_ = -1;
  std::mutex mutex_;  // the fallback only
  std::condition_variable cv_;
  bool signalled_ = false;
};

class JobQueue {
 public:
  using Job = std::function<void()>;
  using Clock = std::chrono::steady_clock;

  explicit JobQueue(size_t capacity) : capacity_(capacity) {}

  // False when full or closed.
  bool post(Job job);

  // Agent thread: runs queued jobs until `until`, waiting for new ones in
  // between. Returns false once the queue is closed.
  bool run_until(Clock::time_point until);

  // Drops queued jobs and wakes every waiting caller; later posts fail.
  void close();
  bool closed() const;

  // Runs fn on the agent thread and waits up to timeout for its result.
  // fn must not refer to the caller's stack: after a timeout it may still run.
  template <class R>
  std::optional<R> call(std::function<R()> fn, std::chrono::milliseconds timeout) {
    struct Call {
      Wakeup done;
      std::optional<R> result;
    };
    auto state = std::make_shared<Call>();
    bool posted = post([this, state, fn = std::move(fn)] {
      R value = fn();
      {
        std::lock_guard<std::mutex> lock(mutex_);
        state->result = std::move(value);
      }
      state->done.signal();
    });
    if (!posted) return std::nullopt;
    const auto deadline = Clock::now() + timeout;
    std::unique_lock<std::mutex> lock(mutex_);
    waiting_.push_back(&state->done);  // close() signals it
    while (!state->result && !closed_) {
      lock.unlock();
      bool woken = state->done.wait_until(deadline);
      lock.lock();
      if (!woken) break;
    }
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), &state->done));
    return std::move(state->result);
  }

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  Wakeup ready_;  // a job was posted, or closed
  std::deque<Job> jobs_;
  std::vector<Wakeup*> waiting_;  // callers waiting for their result
  bool closed_ = false;
};

}  // namespace jvmsight
