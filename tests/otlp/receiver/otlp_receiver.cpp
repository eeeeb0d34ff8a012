#include "tests/otlp/receiver/otlp_receiver.h"

namespace jvmsight::test {

void OtlpReceiver::fail_next(int n) {
  std::lock_guard<std::mutex> lock(mutex_);
  fail_next_ = n;
}

std::vector<Received> OtlpReceiver::received() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return received_;
}

size_t OtlpReceiver::failures_answered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

bool OtlpReceiver::wait_for_more_than(size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] { return received_.size() > count; });
}

bool OtlpReceiver::record(const MetricsRequest& request, std::map<std::string, std::string> headers) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fail_next_ > 0) {
    --fail_next_;
    ++failures_;
    return false;
  }
  received_.push_back({request, std::move(headers), std::chrono::steady_clock::now()});
  changed_.notify_all();
  return true;
}

}  // namespace jvmsight::test
