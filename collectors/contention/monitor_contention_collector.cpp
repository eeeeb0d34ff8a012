#include "collectors/contention/monitor_contention_collector.h"

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

uint64_t MonitorContentionCollector::absorb(Clock::time_point now) {
  std::map<std::string, WaitTotals>& into = scaling_ ? window_ : by_label_;
  uint64_t absorbed = 0;
  recorder_.drain([&](int32_t hash, const WaitTotals& t) {
    absorbed += t.count;
    if (hash == 0) {
      into[other_label].add(t);
      return;
    }
    auto [it, fresh] = pending_.try_emplace(hash, Pending{{}, now});
    it->second.totals.add(t);
  });
  if (resolver_) {
    std::vector<int32_t> unknown;
    for (const auto& [hash, p] : pending_)
      if (!classes_.count(hash)) unknown.push_back(hash);
    if (!unknown.empty()) learn_classes(resolver_->classes_of(unknown));
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
    into[labelled_.count(cls) ? cls : std::string(other_label)].add(totals);
  }
  if (!scaling_) counted_ += absorbed;
  return absorbed;
}

void MonitorContentionCollector::begin_scaling(Clock::time_point now) {
  if (scaling_) return;
  absorb(now);
  if (exact_) exact_->since_last();  // the baseline: entries before this were counted by the events
  scaling_ = true;
}

uint64_t MonitorContentionCollector::flush_scaled(Clock::time_point now) {
  if (!scaling_) return absorb(now);
  uint64_t seen = absorb(now);
  std::optional<uint64_t> jvm = exact_ ? exact_->since_last() : std::nullopt;
  uint64_t entries = jvm ? *jvm : seen << recorder_.duty_shift();
  counted_ += entries;
  uint64_t window = 0;
  for (const auto& [label, t] : window_) window += t.count;
  unattributed_ += entries;
  if (window == 0) return entries;  // carried to the next window that saw any
  // A JVM count under what the events saw misses entries: of threads that
  // ended (they took their counts with them) or of virtual threads
  // (ThreadMXBean does not list them). Then the window stands for its share
  // of the time instead, 2^k.
  double factor = unattributed_ >= window ? static_cast<double>(unattributed_) / static_cast<double>(window)
                                          : static_cast<double>(uint64_t{1} << recorder_.duty_shift());
  for (const auto& [label, t] : window_) add_scaled(label, t, factor);
  window_.clear();
  unattributed_ = 0;
  return entries;
}

void MonitorContentionCollector::end_scaling(Clock::time_point now) {
  if (!scaling_) return;
  flush_scaled(now);
  scaling_ = false;
  if (!window_.empty()) {  // nothing seen since the JVM last counted: no share to scale by
    for (const auto& [label, t] : window_) by_label_[label].add(t);
    window_.clear();
  }
  unattributed_ = 0;
}

void MonitorContentionCollector::add_scaled(const std::string& label, const WaitTotals& t, double factor) {
  // Whole counts now, the fractions later: over many flushes a label's
  // counts add up to its share of the JVM's total.
  Remainder& r = remainders_[label];
  WaitTotals scaled;
  for (size_t i = 0; i < t.buckets.size(); ++i) {
    double x = static_cast<double>(t.buckets[i]) * factor + r.buckets[i];
    scaled.buckets[i] = static_cast<uint64_t>(x);
    r.buckets[i] = x - static_cast<double>(scaled.buckets[i]);
    scaled.count += scaled.buckets[i];
  }
  double sum = static_cast<double>(t.sum_ns) * factor + r.sum_ns;
  scaled.sum_ns = static_cast<uint64_t>(sum);
  r.sum_ns = sum - static_cast<double>(scaled.sum_ns);
  by_label_[label].add(scaled);
}

const std::string* MonitorContentionCollector::class_of(int32_t hash) const {
  auto it = classes_.find(hash);
  return it == classes_.end() ? nullptr : &it->second;
}

void MonitorContentionCollector::collect(MetricFamilies& out) {
  // While duty cycling, a scrape serves the totals of the last cycle's end
  // (ContentionDutyCycle flushes them; at most 2^max_shift slices, 8 s, old)
  // and never reads the JVM's count itself: that is getThreadInfo of every
  // thread, 7-10 ms at 10,000 threads, ten times the rest of a scrape.
  absorb(Clock::now());
  add_sample(add_family(out, "jvmsight_monitor_events_enabled"), events_enabled_ ? 1 : 0);
  auto& enters = add_family(out, "jvmsight_monitor_contended_enter_total");
  auto& waits = add_family(out, "jvmsight_monitor_contended_wait_seconds");
  for (const auto& [label, totals] : by_label_) {
    add_sample(enters, static_cast<double>(totals.count), {{"lock_class", label}});
    add_histogram(waits, totals, {{"lock_class", label}});
  }
  WaitTotals w = recorder_.waits();
  add_sample(add_family(out, "jvmsight_monitor_wait_total"), static_cast<double>(w.count));
  add_histogram(add_family(out, "jvmsight_monitor_wait_seconds"), w);
  add_sample(add_family(out, "jvmsight_monitor_contention_untracked_total"),
             static_cast<double>(recorder_.overflowed()));
  add_sample(add_family(out, "jvmsight_monitor_contended_untimed_total"), static_cast<double>(recorder_.untimed()));
  add_sample(add_family(out, "jvmsight_monitor_contention_sampling_interval"),
             static_cast<double>(uint64_t{1} << recorder_.duty_shift()));
  add_sample(add_family(out, "jvmsight_monitor_contended_wait_records_dropped_total"),
             static_cast<double>(recorder_.long_waits().dropped()));
  add_sample(add_family(out, "jvmsight_monitor_contention_pending_locks"), static_cast<double>(pending_.size()));
}

}  // namespace jvmsight
