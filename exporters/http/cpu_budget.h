#pragma once
// The server thread's CPU share: a flood of connects, TLS handshakes or
// bodies may cost it at most `percent` of a core over time. Credit builds
// up at that share of wall time (up to a burst) and CPU spent draws it down;
// in debt, the thread pauses until the debt is earned back.
#include <algorithm>
#include <chrono>
#include <cstdint>

namespace jvmsight {

class CpuBudget {
 public:
  explicit CpuBudget(int percent) : share_(std::clamp(percent, 1, 100) / 100.0) {}

  // Given the thread's CPU time and the wall clock now (both in ns), how
  // long to pause before the next turn.
  std::chrono::milliseconds pause_due(int64_t cpu_ns, int64_t wall_ns) {
    if (last_wall_ns_ != 0)
      credit_ns_ += static_cast<double>(wall_ns - last_wall_ns_) * share_ - static_cast<double>(cpu_ns - last_cpu_ns_);
    last_cpu_ns_ = cpu_ns;
    last_wall_ns_ = wall_ns;
    credit_ns_ = std::min(credit_ns_, burst_ns);
    if (credit_ns_ >= 0) return std::chrono::milliseconds(0);
    auto ms = static_cast<int64_t>(-credit_ns_ / share_ / 1e6) + 1;
    return std::chrono::milliseconds(std::min<int64_t>(ms, max_pause_ms));
  }

 private:
  static constexpr double burst_ns = 50e6;  // 50 ms of CPU at once, e.g. a big /threads
  static constexpr int64_t max_pause_ms = 500;
  double share_;
  double credit_ns_ = burst_ns;
  int64_t last_cpu_ns_ = 0;
  int64_t last_wall_ns_ = 0;
};

}  // namespace jvmsight
