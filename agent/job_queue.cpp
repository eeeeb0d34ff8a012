#include "agent/job_queue.h"

#include <exception>

#include "common/log.h"

namespace jvmsight {

bool JobQueue::post(Job job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closed_ || jobs_.size() >= capacity_) return false;
    jobs_.push_back(std::move(job));
  }
  ready_.notify_one();
  return true;
}

bool JobQueue::run_until(Clock::time_point until) {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!closed_) {
    if (jobs_.empty() && !ready_.wait_until(lock, until, [&] { return closed_ || !jobs_.empty(); })) return true;
    if (closed_) break;
    Job job = std::move(jobs_.front());
    jobs_.pop_front();
    lock.unlock();
    try {
      job();
    } catch (const std::exception& e) {
      log::warn("agent job failed: ", e.what());
    } catch (...) {
      log::warn("agent job failed");
    }
    lock.lock();
  }
  return false;
}

void JobQueue::close() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
    jobs_.clear();
  }
  ready_.notify_all();
  done_.notify_all();
}

bool JobQueue::closed() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return closed_;
}

}  // namespace jvmsight
