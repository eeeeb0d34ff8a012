#include "collectors/lock_graph/deadlock_detector.h"

#include <algorithm>

#include "common/clock.h"
#include "common/log.h"

namespace jvmsight {
namespace {

// CPU time of the calling thread: what a check costs the machine, apart
// from time it spent stalled (e.g. by someone else's safepoint).
double thread_cpu_seconds() { return static_cast<double>(clock_ns(CLOCK_THREAD_CPUTIME_ID)) / 1e9; }

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

DeadlockDetector::DeadlockDetector(LockGraphSource& source, Reporter reporter, std::chrono::milliseconds confirm_delay,
                                   Sleeper sleeper)
    : source_(source), reporter_(std::move(reporter)), confirm_delay_(confirm_delay), sleeper_(std::move(sleeper)) {}

std::optional<std::vector<DeadlockCycle>> DeadlockDetector::cycles_now() {
  auto scan = source_.scan(ScanDepth::cycles);
  if (!scan) return std::nullopt;
  thread_stops_ += scan->thread_stops;
  if (class_sink_ && !scan->monitor_classes.empty()) class_sink_->learn_classes(scan->monitor_classes);
  auto cycles = scan->graph.cycles();
  last_scan_ = std::move(*scan);
  return cycles;
}

void DeadlockDetector::check() {
  auto start = Clock::now();
  double cpu_start = thread_cpu_seconds();
  ++checks_;
  run_check(start, cpu_start);
  // Every check counts here, those that found a cycle or failed too: a
  // median or a max alone hides what the check costs over time.
  total_seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
  total_cpu_seconds_ += thread_cpu_seconds() - cpu_start;
}

void DeadlockDetector::run_check(Clock::time_point start, double cpu_start) {
  auto first = cycles_now();
  if (!first) {
    ++failed_checks_;
    // One clear line when detection does not work at all (not for a
    // refusal now and then, e.g. while the JVM exits).
    if (++failures_in_a_row_ == 3 && !said_unavailable_) {
      said_unavailable_ = true;
      log::warn(
          "deadlock detection unavailable: neither JVM TI nor ThreadMXBean answered; "
          "jvm_threads_deadlocked is left out until a check succeeds (see jvmsight_deadlock_check_failures_total)");
    }
    return;
  }
  failures_in_a_row_ = 0;
  last_success_unix_s_ = static_cast<double>(clock_ns(CLOCK_REALTIME)) / 1e9;
  std::vector<DeadlockCycle> still;       // confirmed before and seen again
  std::vector<DeadlockCycle> candidates;  // new: need a second look
  for (auto& c : *first) {
    bool known =
        std::any_of(confirmed_.begin(), confirmed_.end(), [&](const DeadlockCycle& k) { return k.key() == c.key(); });
    (known ? still : candidates).push_back(std::move(c));
  }
  if (!candidates.empty()) {
    sleeper_(confirm_delay_);
    auto second = cycles_now();
    std::vector<DeadlockCycle> confirmed_now;
    if (second) {
      for (auto& c : candidates) {
        bool again =
            std::any_of(second->begin(), second->end(), [&](const DeadlockCycle& s) { return s.key() == c.key(); });
        if (again) confirmed_now.push_back(std::move(c));
      }
    }
    for (auto& c : confirmed_now) {
      if (reported_.insert(c.key()).second && reporter_) reporter_(c);
      still.push_back(std::move(c));
    }
  }
  std::sort(still.begin(), still.end(),
            [](const DeadlockCycle& a, const DeadlockCycle& b) { return a.edges[0].waiter < b.edges[0].waiter; });
  confirmed_ = std::move(still);
  // The time of a check that found nothing is the number the benches compare.
  if (candidates.empty()) {
    last_check_seconds_ = std::chrono::duration<double>(Clock::now() - start).count();
    max_check_seconds_ = std::max(max_check_seconds_, last_check_seconds_);
    double cpu = thread_cpu_seconds() - cpu_start;
    if (recent_seconds_.size() < recent_checks) {
      recent_seconds_.push_back(last_check_seconds_);
      recent_cpu_seconds_.push_back(cpu);
    } else {
      recent_seconds_[recent_next_] = last_check_seconds_;
      recent_cpu_seconds_[recent_next_] = cpu;
    }
    recent_next_ = (recent_next_ + 1) % recent_checks;
  }
}

void DeadlockDetector::collect(MetricFamilies& out) {
  if (gauges_known()) {
    // client_java's meaning: the length of findDeadlockedThreads(), which
    // lists threads waiting on a deadlocked one too (hotspot_deadlocked).
    size_t all = 0, monitor = 0;
    if (!confirmed_.empty()) {
      all = last_scan_.graph.hotspot_deadlocked(last_scan_.list_order, false).size();
      monitor = last_scan_.graph.hotspot_deadlocked(last_scan_.list_order, true).size();
    }
    add_sample(add_family(out, "jvm_threads_deadlocked"), static_cast<double>(all));
    add_sample(add_family(out, "jvm_threads_deadlocked_monitor"), static_cast<double>(monitor));
    add_sample(add_family(out, "jvmsight_deadlock_cycles"), static_cast<double>(confirmed_.size()));
  }
  if (last_success_unix_s_ > 0)
    add_sample(add_family(out, "jvmsight_deadlock_check_last_success_timestamp_seconds"), last_success_unix_s_);
  add_sample(add_family(out, "jvmsight_deadlock_checks_total"), static_cast<double>(checks_));
  add_sample(add_family(out, "jvmsight_deadlock_check_failures_total"), static_cast<double>(failed_checks_));
  add_sample(add_family(out, "jvmsight_deadlock_check_thread_stops_total"), static_cast<double>(thread_stops_));
  add_sample(add_family(out, "jvmsight_deadlock_check_cpu_seconds_total"), total_cpu_seconds_);
  add_sample(add_family(out, "jvmsight_deadlock_check_duration_seconds_total"), total_seconds_);
  add_sample(add_family(out, "jvmsight_deadlock_check_seconds"), last_check_seconds_);
  add_sample(add_family(out, "jvmsight_deadlock_check_median_seconds"), median_of(recent_seconds_));
  add_sample(add_family(out, "jvmsight_deadlock_check_cpu_median_seconds"), median_of(recent_cpu_seconds_));
  add_sample(add_family(out, "jvmsight_deadlock_check_max_seconds"), max_check_seconds_);
  add_sample(add_family(out, "jvmsight_deadlock_check_stops_the_world"), source_.stops_the_world() ? 1 : 0);
}

}  // namespace jvmsight
