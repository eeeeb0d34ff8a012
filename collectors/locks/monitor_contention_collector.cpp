#include "collectors/locks/monitor_contention_collector.h"

#include <algorithm>
#include <vector>

namespace jvmsight {
namespace {

constexpr size_t max_known_classes = 8192;
constexpr const char* other_label = "other";
constexpr const char* unresolved_label = "unresolved";

HistogramValue histogram_of(const WaitTotals& t) {
  HistogramValue h;
  h.upper_bounds.assign(wait_bounds_seconds.begin(), wait_bounds_seconds.end());
  h.bucket_counts.assign(t.buckets.begin(), t.buckets.end());
  h.count = t.count;
  h.sum = static_cast<double>(t.sum_ns) / 1e9;
  return h;
}

void add_histogram(MetricFamily& f, const WaitTotals& t, std::vector<Label> labels = {}) {
  Sample s;
  s.labels = std::move(labels);
  s.histogram = histogram_of(t);
  f.samples.push_back(std::move(s));
}

}  // namespace

void MonitorContentionCollector::learn_classes(const std::map<int32_t, std::string>& classes) {
  if (classes_.size() + classes.size() > max_known_classes) classes_.clear();  // stale hashes go; live ones return
  for (const auto& [hash, name] : classes) classes_[hash] = name;
}

void MonitorContentionCollector::absorb(Clock::time_point now) {
  recorder_.drain([&](int32_t hash, const WaitTotals& t) {
    absorbed_ += t.count;
    if (hash == 0) {
      by_label_[other_label].add(t);
      return;
    }
    auto [it, fresh] = pending_.try_emplace(hash, Pending{{}, now});
    it->second.totals.add(t);
  });
  if (resolver_) {
    std::vector<int32_t> unknown;
    for (const auto& [hash, p] : pending_)
      if (!classes_.count(hash)) unknown.push_back(hash);
    if (!unknown.empty()) learn_classes(resolver_(unknown));
  }
  std::map<std::string, WaitTotals> resolved;
  for (auto it = pending_.begin(); it != pending_.end();) {
    auto known = classes_.find(it->first);
    if (known != classes_.end()) {
      resolved[known->second].add(it->second.totals);
    } else if (now - it->second.since >= unresolved_after) {
      resolved[unresolved_label].add(it->second.totals);
    } else {
      ++it;
      continue;
    }
    it = pending_.erase(it);
  }
  std::vector<std::pair<std::string, WaitTotals>> ranked(resolved.begin(), resolved.end());
  std::sort(ranked.begin(), ranked.end(),
            [](const auto& a, const auto& b) { return a.second.sum_ns > b.second.sum_ns; });
  for (const auto& [cls, totals] : ranked) {
    if (!labelled_.count(cls) && labelled_.size() < lock_classes_) labelled_.insert(cls);
    by_label_[labelled_.count(cls) ? cls : std::string(other_label)].add(totals);
  }
}

void MonitorContentionCollector::adjust_sampling(Clock::time_point now) {
  absorb(now);
  double seconds = std::chrono::duration<double>(now - adjusted_at_).count();
  recorder_.set_sample_shift(sampler_.next_shift(recorder_.sample_shift(), absorbed_, seconds), monotonic_ns());
  absorbed_ = 0;
  adjusted_at_ = now;
}

void MonitorContentionCollector::collect(MetricFamilies& out) {
  absorb();
  add_sample(add_family(out, "jvmsight_monitor_events_enabled", MetricType::gauge,
                        "1 when JVM TI monitor contention and wait events are recorded"),
             events_enabled_ ? 1 : 0);
  auto& enters = add_family(out, "jvmsight_monitor_contended_enter_total", MetricType::counter,
                            "Contended synchronized entries (the thread had to block), by lock class");
  auto& waits = add_family(out, "jvmsight_monitor_contended_wait_seconds", MetricType::histogram,
                           "Time blocked entering a contended synchronized block, by lock class");
  for (const auto& [label, totals] : by_label_) {
    add_sample(enters, static_cast<double>(totals.count), {{"lock_class", label}});
    add_histogram(waits, totals, {{"lock_class", label}});
  }
  WaitTotals w = recorder_.waits();
  add_sample(add_family(out, "jvmsight_monitor_wait_total", MetricType::counter,
                        "Object.wait calls that returned (notified, timed out or interrupted)"),
             static_cast<double>(w.count));
  add_histogram(add_family(out, "jvmsight_monitor_wait_seconds", MetricType::histogram,
                           "Time spent in Object.wait (waiting, not contention)"),
                w);
  add_sample(
      add_family(out, "jvmsight_monitor_contention_untracked_total", MetricType::counter,
                 "Contended entries on lock objects beyond the agent's table, counted under lock_class=\"other\""),
      static_cast<double>(recorder_.overflowed()));
  add_sample(
      add_family(out, "jvmsight_monitor_contended_untimed_total", MetricType::counter,
                 "Contended entries whose start was not seen (e.g. began before the agent attached); not counted"),
      static_cast<double>(recorder_.untimed()));
  add_sample(add_family(out, "jvmsight_monitor_contention_sampling_interval", MetricType::gauge,
                        "1 when every contended entry is timed; N when one in N is, each counting for N "
                        "(above the contention_sampling rate)"),
             static_cast<double>(uint64_t{1} << recorder_.sample_shift()));
  add_sample(add_family(out, "jvmsight_monitor_contention_pending_locks", MetricType::gauge,
                        "Contended lock objects whose class is not known yet (counted once it is, or as unresolved)"),
             static_cast<double>(pending_.size()));
}

}  // namespace jvmsight
