#pragma once
// How long a batch waits before its next attempt: what the server asked for
// (Retry-After, RetryInfo), else exponential backoff with jitter, as the
// OTLP specification recommends: the base doubles from `initial` up to
// `max`, and each wait is the base times 0.5 to 1.5, so that agents that
// failed together do not all retry together. Pure: the caller draws.
#include <algorithm>
#include <chrono>
#include <cstdint>

namespace jvmsight::otlp {

class Backoff {
 public:
  Backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max) : base_(initial), max_(max) {}

  // retry_after: the server's wait, or negative when it gave none (the base
  // then grows). unit: a uniform draw in [0, 1).
  std::chrono::milliseconds next(std::chrono::milliseconds retry_after, double unit) {
    if (retry_after.count() >= 0) return retry_after;
    const auto wait = std::chrono::milliseconds(static_cast<int64_t>(base_.count() * (0.5 + unit)));
    base_ = std::min(base_ * 2, max_);
    return wait;
  }

 private:
  std::chrono::milliseconds base_;
  const std::chrono::milliseconds max_;
};

}  // namespace jvmsight::otlp
