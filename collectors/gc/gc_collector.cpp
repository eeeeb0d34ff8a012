#include "collectors/gc/gc_collector.h"

#include "common/clock.h"

namespace jvmsight {
namespace {

SpanRecord span_of(const GcPause& p) {
  SpanRecord s;
  s.name = "gc.pause";
  s.start_unix_ns = p.raw.start_wall_ns;
  s.end_unix_ns = p.raw.end_wall_ns;
  s.attributes.push_back({"gc", p.gc});
  if (!p.action.empty()) s.attributes.push_back({"action", p.action});
  if (!p.cause.empty()) s.attributes.push_back({"cause", p.cause});
  // Wall-clock start/end can be stepped by NTP; this is the exact duration.
  s.attributes.push_back({"duration_ns", std::to_string(p.raw.duration_ns())});
  if (p.collections.size() > 1) {
    std::string all;
    for (const auto& c : p.collections) all += (all.empty() ? "" : ",") + c;
    s.attributes.push_back({"collections", all});
  }
  return s;
}

}  // namespace

void GcCollector::set_up() {
  set_up_ = true;
  if (!beans_.resolve(jni_)) return;
  bool concurrent = false;
  std::vector<std::string> stop_the_world;
  for (const auto& name : beans_.names()) {
    if (GcMxBeans::is_cycle_collector(name))
      concurrent = true;
    else
      stop_the_world.push_back(name);
  }
  if (notifications_.value_or(!concurrent)) beans_.listen(jni_);
  if (stop_the_world.size() == 1) matcher_.set_fallback_collector(stop_the_world.front());
}

void GcCollector::poll() {
  if (!set_up_) set_up();
  // Notifications first: a notification is sent after its pause ended, so
  // every pause it can belong to is already in the recorder.
  for (auto& n : beans_.drain(jni_)) {
    allocation_.on_collection(n.pools);  // every collector's, as client_java counts
    if (!GcMxBeans::is_cycle_collector(n.gc)) matcher_.add_notification(std::move(n));
  }
  recorder_.drain([this](const RawGcPause& p) {
    max_since_scrape_ns_ = std::max(max_since_scrape_ns_, p.duration_ns());
    matcher_.add_pause(p);
  });
  for (const auto& p : matcher_.settle(clock_ns(CLOCK_MONOTONIC), beans_.listening())) record(p);
}

void GcCollector::record(const GcPause& pause) {
  // The action (GarbageCollectionNotificationInfo.getGcAction) is OTLP's
  // jvm.gc.action; "unknown" like gc when no notification matched.
  // The cause (getGcCause) is jvm.gc.cause, opt-in as in the conventions.
  std::string cause = by_cause_ ? (pause.cause.empty() ? "unknown" : pause.cause) : "";
  histograms_[{pause.gc, pause.action.empty() ? "unknown" : pause.action, std::move(cause)}].observe(
      static_cast<double>(pause.raw.duration_ns()) / 1e9);
  for (const auto& c : pause.collections) ++collections_in_pauses_[c];
  SpanRecord span = span_of(pause);
  recent_.push_back(span);
  if (recent_.size() > recent_pause_count) recent_.pop_front();
  if (pause.raw.duration_ns() >= span_min_ns_) spans_.push(std::move(span));
}

void GcCollector::collect(MetricFamilies& out) {
  poll();
  auto readings = beans_.read(jni_);
  auto& collections = add_family(out, "jvm_gc_collection_seconds");
  for (const auto& r : readings)
    add_summary(collections, static_cast<uint64_t>(r.count), static_cast<double>(r.time_ms) / 1000, {{"gc", r.name}});
  // Only from notifications: without them (gc_notifications off, or auto
  // with ZGC/Shenandoah) the family is left out, not reported as 0.
  if (beans_.listening()) allocation_.collect(out);
  bool any_cycles = false;
  for (const auto& r : readings) any_cycles = any_cycles || GcMxBeans::is_cycle_collector(r.name);
  if (any_cycles) {
    auto& cycles = add_family(out, "jvmsight_gc_concurrent_cycle_seconds");
    for (const auto& r : readings)
      if (GcMxBeans::is_cycle_collector(r.name))
        add_summary(cycles, static_cast<uint64_t>(r.count), static_cast<double>(r.time_ms) / 1000, {{"gc", r.name}});
  }

  add_sample(add_family(out, "jvmsight_gc_pause_events_supported"), recorder_.supported() ? 1 : 0);
  add_sample(add_family(out, "jvmsight_gc_notifications_enabled"), beans_.listening() ? 1 : 0);
  if (!recorder_.supported()) return;
  auto& pauses = add_family(out, "jvmsight_gc_pause_seconds");
  for (const auto& [key, h] : histograms_) {
    const auto& [gc, action, cause] = key;
    std::vector<Label> labels{{"gc", gc}, {"action", action}};
    if (by_cause_) labels.push_back({"cause", cause});
    add_histogram(pauses, h.value(), std::move(labels));
  }
  auto& inside = add_family(out, "jvmsight_gc_pause_collections_total");
  for (const auto& [gc, n] : collections_in_pauses_) add_sample(inside, static_cast<double>(n), {{"gc", gc}});
  add_sample(add_family(out, "jvmsight_gc_notifications_unmatched_total"),
             static_cast<double>(matcher_.unmatched_notifications()));
  add_sample(add_family(out, "jvmsight_gc_pause_max_seconds"), static_cast<double>(max_since_scrape_ns_) / 1e9);
  max_since_scrape_ns_ = 0;
  add_sample(add_family(out, "jvmsight_gc_pause_events_dropped_total"), static_cast<double>(recorder_.dropped()));
  add_sample(add_family(out, "jvmsight_gc_spans_dropped_total"), static_cast<double>(spans_.dropped()));
}

GcReport GcCollector::report() {
  poll();
  GcReport r;
  r.pause_events = recorder_.supported();
  r.notifications = beans_.listening();
  r.pauses = recorder_.finished();
  r.recent_pauses.assign(recent_.begin(), recent_.end());
  r.queued_spans = spans_.peek();
  r.span_queue_capacity = spans_.capacity();
  r.spans_dropped = spans_.dropped();
  r.span_min_ns = span_min_ns_;
  return r;
}

}  // namespace jvmsight
