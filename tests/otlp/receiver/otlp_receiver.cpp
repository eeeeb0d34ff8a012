#include "tests/otlp/receiver/otlp_receiver.h"

#include <algorithm>

namespace jvmsight::test {

void OtlpReceiver::fail_next(int n) {
  std::lock_guard<std::mutex> lock(mutex_);
  fail_next_ = n;
}

std::vector<Received> OtlpReceiver::received(const std::string& signal) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Received> out;
  for (const auto& r : received_)
    if (r.signal == signal) out.push_back(r);
  return out;
}

size_t OtlpReceiver::failures_answered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

bool OtlpReceiver::wait_for_more_than(size_t count, std::chrono::milliseconds timeout,
                                      const std::string& signal) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    return static_cast<size_t>(std::count_if(received_.begin(), received_.end(),
                                             [&](const Received& r) { return r.signal == signal; })) > count;
  });
}

bool OtlpReceiver::record(Received received) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (fail_next_ > 0) {
    --fail_next_;
    ++failures_;
    return false;
  }
  received.at = std::chrono::steady_clock::now();
  received_.push_back(std::move(received));
  changed_.notify_all();
  return true;
}

}  // namespace jvmsight::test
