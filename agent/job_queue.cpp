#include "agent/job_queue.h"

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <exception>

#include "common/log.h"

namespace jvmsight {

Wakeup::Wakeup() : fd_(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

Wakeup::~Wakeup() {
  if (fd_ >= 0) ::close(fd_);
}

void Wakeup::signal() {
  if (fd_ >= 0) {
    uint64_t one = 1;
    // Fails only when the counter would overflow: it is signalled already.
    ssize_t written = write(fd_, &one, sizeof one);
    (void)written;
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    signalled_ = true;
  }
  cv_.notify_all();
}

bool Wakeup::wait_until(Clock::time_point deadline) {
  if (fd_ < 0) {
    std::unique_lock<std::mutex> lock(mutex_);
    if (!cv_.wait_until(lock, deadline, [this] { return signalled_; })) return false;
    signalled_ = false;
    return true;
  }
  for (;;) {
    uint64_t count = 0;
    if (read(fd_, &count, sizeof count) == static_cast<ssize_t>(sizeof count)) return true;
    auto left = deadline - Clock::now();
    if (left <= Clock::duration::zero()) return false;
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    timespec timeout{static_cast<time_t>(ns / 1'000'000'000), static_cast<long>(ns % 1'000'000'000)};
    pollfd p{fd_, POLLIN, 0};
    if (ppoll(&p, 1, &timeout, nullptr) < 0 && errno != EINTR) return false;
  }
}

bool JobQueue::post(std::unique_ptr<Job> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || jobs_.size() >= capacity_) return false;
    jobs_.push_back(std::move(job));
  }
  ready_.signal();
  return true;
}

bool JobQueue::run_until(Clock::time_point until) {
  for (;;) {
    std::unique_ptr<Job> job;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (closed_) return false;
      if (!jobs_.empty()) {
        job = std::move(jobs_.front());
        jobs_.pop_front();
      }
    }
    if (!job) {
      if (!ready_.wait_until(until)) return !closed();
      continue;
    }
    try {
      job->run();
    } catch (const std::exception& e) {
      log::warn("agent job failed: ", e.what());
    } catch (...) {
      log::warn("agent job failed");
    }
  }
}

void JobQueue::close() {
  std::deque<std::unique_ptr<Job>> dropped;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    dropped.swap(jobs_);
    // Under the lock: a caller unregisters (and may free its Wakeup) only with it held.
    for (Wakeup* w : waiting_) w->signal();
  }
  ready_.signal();
}

bool JobQueue::closed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

}  // namespace jvmsight
