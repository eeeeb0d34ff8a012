#pragma once
// Work handed to the agent thread by threads that must not touch the JVM
// (the HTTP thread, the OTLP pusher). Bounded: a caller that finds it full
// or closed gets an immediate no, never an unbounded wait.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
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
  using Clock = std::chrono::steady_clock;

  // One unit of the agent thread's work. call() wraps a function in one
  // (JobQueue::Call); tests post their own.
  class Job {
   public:
    virtual ~Job() = default;
    virtual void run() = 0;
  };

  explicit JobQueue(size_t capacity) : capacity_(capacity) {}

  // False when full or closed.
  bool post(std::unique_ptr<Job> job);

  // Agent thread: runs queued jobs until `until`, waiting for new ones in
  // between. Returns false once the queue is closed.
  bool run_until(Clock::time_point until);

  // Drops queued jobs and wakes every waiting caller; later posts fail.
  void close();
  bool closed() const;

  // Runs fn on the agent thread and waits up to timeout for what it
  // returns; nullopt when full, timed out or closed. fn must not refer to
  // the caller's stack: after a timeout it may still run.
  template <class Fn>
  auto call(Fn fn, std::chrono::milliseconds timeout) -> std::optional<std::invoke_result_t<Fn&>> {
    using R = std::invoke_result_t<Fn&>;
    auto reply = std::make_shared<Reply<R>>();
    if (!post(std::make_unique<Call<Fn, R>>(*this, std::move(fn), reply))) return std::nullopt;
    const auto deadline = Clock::now() + timeout;
    std::unique_lock<std::mutex> lock(mutex_);
    waiting_.push_back(&reply->done);  // close() signals it
    while (!reply->result && !closed_) {
      lock.unlock();
      bool woken = reply->done.wait_until(deadline);
      lock.lock();
      if (!woken) break;
    }
    waiting_.erase(std::find(waiting_.begin(), waiting_.end(), &reply->done));
    return std::move(reply->result);
  }

 private:
  // Shared by the caller and its job: the caller may have given up waiting.
  template <class R>
  struct Reply {
    Wakeup done;
    std::optional<R> result;
  };
  // The job call() posts: runs fn, hands its result to the waiting caller.
  template <class Fn, class R>
  class Call : public Job {
   public:
    Call(JobQueue& queue, Fn fn, std::shared_ptr<Reply<R>> reply)
        : queue_(queue), fn_(std::move(fn)), reply_(std::move(reply)) {}
    void run() override {
      R value = fn_();
      {
        std::lock_guard<std::mutex> lock(queue_.mutex_);
        reply_->result = std::move(value);
      }
      reply_->done.signal();
    }

   private:
    JobQueue& queue_;
    Fn fn_;
    std::shared_ptr<Reply<R>> reply_;
  };

  const size_t capacity_;
  mutable std::mutex mutex_;
  Wakeup ready_;  // a job was posted, or closed
  std::deque<std::unique_ptr<Job>> jobs_;
  std::vector<Wakeup*> waiting_;  // callers waiting for their result
  bool closed_ = false;
};

}  // namespace jvmsight
