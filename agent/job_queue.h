#pragma once
// Work handed to the agent thread by threads that must not touch the JVM
// (HTTP workers, later the OTLP pusher). Bounded: a caller that finds it full
// or closed gets an immediate no, never an unbounded wait.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace jvmsight {

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
    auto result = std::make_shared<std::optional<R>>();
    bool posted = post([this, result, fn = std::move(fn)] {
      R value = fn();
      std::lock_guard<std::mutex> lock(mutex_);
      *result = std::move(value);
      done_.notify_all();
    });
    if (!posted) return std::nullopt;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait_for(lock, timeout, [&] { return result->has_value() || closed_; });
    return *result;
  }

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;  // a job was posted, or closed
  std::condition_variable done_;   // a call finished, or closed
  std::deque<Job> jobs_;
  bool closed_ = false;
};

}  // namespace jvmsight
