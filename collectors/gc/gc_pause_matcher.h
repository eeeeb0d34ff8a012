#pragma once
// Gives each JVM TI pause its collector name, action and cause, taken from
// the GarbageCollectionNotificationInfo the JVM sends after every collection.
// Pure logic (no JVM), so it is unit-tested with made-up timelines.
//
// Why it needs care: JVM TI times a pause in CLOCK_MONOTONIC nanoseconds; a
// notification's GcInfo has start/end in whole milliseconds since an origin
// the JVM does not expose (measured: 10-110 ms after the RuntimeMXBean
// uptime origin, different on every run). So the matcher first finds that
// offset from the data: the offset at which the most notifications fall
// inside a pause (each pairing allows an interval of offsets; take the point
// covered by most intervals). Then a notification belongs to the pause it
// falls inside. One pause may hold several collections (Parallel's full GC
// on JDK 17 runs a scavenge first: two notifications, one pause); a pause
// with none (G1 Remark/Cleanup on JDK 17, pauses before the listener was
// installed) is reported as collector "unknown".
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "collectors/gc/gc_pause_recorder.h"

namespace jvmsight {

// One memory pool in a GC notification: used bytes before and after.
struct PoolUsageChange {
  std::string pool;
  int64_t before_used = 0;
  int64_t after_used = 0;
};

struct GcNotification {
  std::string gc;        // GarbageCollectorMXBean name, e.g. "G1 Young Generation"
  std::string action;    // e.g. "end of minor GC"
  std::string cause;     // e.g. "G1 Evacuation Pause", "System.gc()"
  int64_t id = 0;        // the collector's collection number
  int64_t start_ms = 0;  // GcInfo start/end: ms since the JVM's GC time origin
  int64_t end_ms = 0;
  std::vector<PoolUsageChange> pools;  // GcInfo memory usage before/after, every pool it reports
};

// A pause once its attribution is settled.
struct GcPause {
  RawGcPause raw;
  std::string gc = "unknown";
  std::string action;
  std::string cause;
  std::vector<std::string> collections;  // every collection seen inside the pause
  bool matched() const { return !collections.empty(); }
};

class GcPauseMatcher {
 public:
  // A pause waits at most this long for its notification (the JVM's service
  // thread sends them right after the pause; seconds late means never).
  static constexpr int64_t settle_delay_ns = 1'000'000'000;
  // ...and this long while no later notification shows it will never come.
  static constexpr int64_t give_up_delay_ns = 10'000'000'000;
  // Once a pause has a notification, wait this long for more of the same
  // pause (Parallel's scavenge + full collection) before settling it.
  static constexpr int64_t complete_delay_ns = 50'000'000;

  void add_pause(const RawGcPause& pause);
  // Only notifications of stop-the-world collectors: cycle collectors
  // ("ZGC Cycles", "Shenandoah Cycles") span concurrent work and are never a pause.
  void add_notification(GcNotification n);

  // Returns the pauses whose attribution is final, oldest first. With
  // notifications unavailable, every pause settles at once as the fallback
  // collector.
  std::vector<GcPause> settle(int64_t now_mono_ns, bool notifications_available);

  // Without notifications: the JVM's only stop-the-world collector when it
  // has exactly one ("ZGC Pauses" on JDK 17, "Shenandoah Pauses"): every
  // pause is one of its collections. Empty: "unknown".
  void set_fallback_collector(std::string gc) { fallback_gc_ = std::move(gc); }

  // The offset (ms) from the notification time origin to CLOCK_MONOTONIC
  // milliseconds, once known.
  std::optional<double> offset_ms() const { return offset_ms_; }
  uint64_t unmatched_notifications() const { return unmatched_notifications_; }

 private:
  struct Note {
    GcNotification n;
    bool used = false;
  };
  void calibrate();
  bool inside(const Note& note, const RawGcPause& p, double slack = 0.5) const;
  // The steps of settle(), for the oldest pending pause.
  std::optional<std::vector<Note*>> notes_of(const RawGcPause& p, int64_t now_mono_ns);
  std::vector<Note*> notes_inside(const RawGcPause& p);
  Note* closest_stray_note(const RawGcPause& p);
  bool fits_a_later_pause(const Note& note) const;
  bool needed_by_a_later_pause(const Note& note) const;
  static void attribute(GcPause& settled, const std::vector<Note*>& taken);
  void forget_old_notes(int64_t now_mono_ns);

  std::deque<RawGcPause> pending_;
  std::deque<Note> notes_;
  std::deque<RawGcPause> recent_pauses_;  // calibration window
  std::deque<GcNotification> recent_notes_;
  std::optional<double> offset_ms_;
  std::optional<double> last_settled_end_ms_;
  std::string fallback_gc_;
  uint64_t unmatched_notifications_ = 0;
};

}  // namespace jvmsight
