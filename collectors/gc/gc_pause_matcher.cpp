#include "collectors/gc/gc_pause_matcher.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace jvmsight {
namespace {

// Calibration looks at this many recent pauses and notifications.
constexpr size_t window = 64;
// GcInfo times are truncated to whole ms; allow a little more for the
// moments JVM TI and the GC take their timestamps.
constexpr double slack_ms = 0.5;
// For a pause about to be given up on: a notification this close still counts.
constexpr double near_ms = 20;
// Unused notifications stay this long before the oldest pending pause, for that rule.
constexpr double keep_ms = 1000;
// Unused notifications are kept this long in case their pause is late.
constexpr size_t max_notes = 512;

double ms(int64_t ns) { return static_cast<double>(ns) / 1e6; }

}  // namespace

void GcPauseMatcher::add_pause(const RawGcPause& pause) {
  pending_.push_back(pause);
  recent_pauses_.push_back(pause);
  if (recent_pauses_.size() > window) recent_pauses_.pop_front();
}

void GcPauseMatcher::add_notification(GcNotification n) {
  recent_notes_.push_back(n);
  if (recent_notes_.size() > window) recent_notes_.pop_front();
  notes_.push_back({std::move(n), false});
  while (notes_.size() > max_notes) {
    if (!notes_.front().used) ++unmatched_notifications_;
    notes_.pop_front();
  }
}

// A collection timed [s, e] in truncated ms lies inside pause [P.s, P.e] for
// offsets D with P.s - 1 < s + D and e + D <= P.e, i.e. D in (P.s - s - 1,
// P.e - e]. Sweep all pairings and keep the offset covered most often; on a
// tie keep the previous offset, so a settled estimate does not wander.
void GcPauseMatcher::calibrate() {
  std::vector<std::pair<double, int>> events;
  for (const auto& p : recent_pauses_) {
    for (const auto& n : recent_notes_) {
      double lo = ms(p.start_mono_ns) - static_cast<double>(n.start_ms) - 1 - slack_ms;
      double hi = ms(p.end_mono_ns) - static_cast<double>(n.end_ms) + slack_ms;
      if (lo >= hi) continue;
      events.push_back({lo, +1});
      events.push_back({hi, -1});
    }
  }
  if (events.empty()) return;
  // At equal positions process ends before starts: intervals are half-open.
  std::sort(events.begin(), events.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second < b.second; });
  int depth = 0, best = 0;
  double best_lo = 0, best_hi = 0;
  int previous_depth = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    depth += events[i].second;
    double here = events[i].first;
    double next = i + 1 < events.size() ? events[i + 1].first : here;
    if (offset_ms_ && *offset_ms_ > here && *offset_ms_ <= next) previous_depth = depth;
    if (depth > best && next > here) {
      best = depth;
      best_lo = here;
      best_hi = next;
    }
  }
  if (best == 0) return;
  if (offset_ms_ && previous_depth == best) return;
  offset_ms_ = (best_lo + best_hi) / 2;
}

bool GcPauseMatcher::inside(const Note& note, const RawGcPause& p, double slack) const {
  double s = static_cast<double>(note.n.start_ms) + *offset_ms_;
  double e = static_cast<double>(note.n.end_ms) + *offset_ms_;
  return s > ms(p.start_mono_ns) - 1 - slack && e <= ms(p.end_mono_ns) + slack;
}

bool GcPauseMatcher::fits_a_later_pause(const Note& note) const {
  for (size_t i = 1; i < pending_.size(); ++i)
    if (inside(note, pending_[i])) return true;
  return false;
}

// True if a later pause fits this note and no other unused one: the note is
// that pause's, however close it is to this one.
bool GcPauseMatcher::needed_by_a_later_pause(const Note& note) const {
  for (size_t i = 1; i < pending_.size(); ++i) {
    if (!inside(note, pending_[i])) continue;
    bool other = false;
    for (const auto& o : notes_) other = other || (&o != &note && !o.used && inside(o, pending_[i]));
    if (!other) return true;
  }
  return false;
}

std::vector<GcPauseMatcher::Note*> GcPauseMatcher::notes_inside(const RawGcPause& p) {
  std::vector<Note*> taken;
  for (auto& note : notes_) {
    if (note.used || !inside(note, p)) continue;
    // Pauses within a millisecond or so: leave a further collection that
    // also fits a later pause to that pause.
    if (!taken.empty() && fits_a_later_pause(note)) continue;
    taken.push_back(&note);
  }
  return taken;
}

// Rarely (about one collection in a few thousand here) a notification misses
// its pause by more than the slack. Notifications come in order and every
// earlier pause is settled: an unused one between the previous pause and the
// next is this pause's; take the closest.
GcPauseMatcher::Note* GcPauseMatcher::closest_stray_note(const RawGcPause& p) {
  const RawGcPause* next = pending_.size() > 1 ? &pending_[1] : nullptr;
  double lo = last_settled_end_ms_ ? *last_settled_end_ms_ : -1e300;
  double hi = next != nullptr ? ms(next->start_mono_ns) : 1e300;
  Note* closest = nullptr;
  double best = 0;
  for (auto& note : notes_) {
    double s = static_cast<double>(note.n.start_ms) + *offset_ms_;
    double e = static_cast<double>(note.n.end_ms) + *offset_ms_;
    if (note.used || s < lo - 1 || e > hi + slack_ms || needed_by_a_later_pause(note)) continue;
    double distance = std::abs(s - ms(p.start_mono_ns));
    if (distance <= near_ms && (closest == nullptr || distance < best)) closest = &note, best = distance;
  }
  return closest;
}

// The notifications of pause p, or nullopt while it should wait for more.
std::optional<std::vector<GcPauseMatcher::Note*>> GcPauseMatcher::notes_of(const RawGcPause& p, int64_t now_mono_ns) {
  // Notifications come in collection order, so once one starts after this
  // pause ended, every notification of this pause is already here. A
  // pause holding several collections gets their notifications within
  // microseconds of each other: a short wait after the first is enough.
  bool later_seen = false;
  for (const auto& note : notes_)
    later_seen = later_seen || static_cast<double>(note.n.start_ms) + *offset_ms_ > ms(p.end_mono_ns) + slack_ms;
  std::vector<Note*> taken = notes_inside(p);
  // A pause without a notification waits the grace period even if later
  // ones arrived (early on, the offset rests on few samples and may still
  // move), and longer while none has: the service thread that sends them
  // can lag seconds behind on a saturated host.
  int64_t age = now_mono_ns - p.end_mono_ns;
  bool wait = taken.empty() ? (later_seen ? age < settle_delay_ns : age < give_up_delay_ns)
                            : !later_seen && age < complete_delay_ns;
  if (wait) return std::nullopt;
  if (taken.empty())
    if (Note* stray = closest_stray_note(p)) taken.push_back(stray);
  return taken;
}

// Several collections in one pause: the pause is the last one's (the full
// collection that Parallel's System.gc() runs after a scavenge, Serial's
// full collection after a failed young one). Not the longest: a full
// collection of an almost empty heap can be the shorter.
void GcPauseMatcher::attribute(GcPause& settled, const std::vector<Note*>& taken) {
  for (Note* note : taken) {
    note->used = true;
    settled.collections.push_back(note->n.gc);
  }
  if (!taken.empty()) {
    settled.gc = taken.back()->n.gc;
    settled.action = taken.back()->n.action;
    settled.cause = taken.back()->n.cause;
  }
}

std::vector<GcPause> GcPauseMatcher::settle(int64_t now_mono_ns, bool notifications_available) {
  std::vector<GcPause> out;
  if (notifications_available) calibrate();
  while (!pending_.empty()) {
    const RawGcPause p = pending_.front();
    GcPause settled;
    settled.raw = p;
    if (notifications_available && offset_ms_) {
      auto taken = notes_of(p, now_mono_ns);
      if (!taken) break;
      attribute(settled, *taken);
    } else if (notifications_available && now_mono_ns - p.end_mono_ns < give_up_delay_ns) {
      // No offset yet: no notification has arrived at all, so none shows
      // that this pause's will never come. The first ones are the slowest
      // (the JVM builds its notification machinery then): more than 1 s late
      // under load, where a 1 s wait left the JVM's first 1-5 pauses unknown.
      break;
    } else if (!notifications_available && !fallback_gc_.empty()) {
      settled.gc = fallback_gc_;
      settled.collections.push_back(fallback_gc_);
    }
    last_settled_end_ms_ = ms(p.end_mono_ns);
    out.push_back(std::move(settled));
    pending_.pop_front();
  }
  forget_old_notes(now_mono_ns);
  return out;
}

// Notifications older than every pending pause will never match.
void GcPauseMatcher::forget_old_notes(int64_t now_mono_ns) {
  double oldest_pending = pending_.empty() ? ms(now_mono_ns) : ms(pending_.front().start_mono_ns);
  while (!notes_.empty() && offset_ms_ &&
         static_cast<double>(notes_.front().n.end_ms) + *offset_ms_ < oldest_pending - keep_ms) {
    if (!notes_.front().used) ++unmatched_notifications_;
    notes_.pop_front();
  }
}

}  // namespace jvmsight
