#pragma once
// What the contention units ask of the JVM, scripted: classes of tagged
// locks, the JVM's own count of contended entries, the events' switch.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collectors/contention/contention_duty_cycle.h"
#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/contention/monitor_contention_recorder.h"

namespace jvmsight::test {

// Classes by hash, as GetObjectsWithTags would find them; remembers what was asked.
struct FixedClasses : TaggedClassResolver {
  explicit FixedClasses(std::map<int32_t, std::string> names) : names(std::move(names)) {}
  std::map<int32_t, std::string> classes_of(const std::vector<int32_t>& hashes) override {
    asked = hashes;
    return names;
  }
  std::map<int32_t, std::string> names;
  std::vector<int32_t> asked;
};

// The JVM's count since the last read: `value` each time (nullopt: unknown).
struct ScriptedEntryCount : ContendedEntryCount {
  std::optional<uint64_t> since_last() override {
    ++reads;
    return value;
  }
  std::optional<uint64_t> value = 0;
  int reads = 0;
};

// Records every switch; refuses when told to.
struct RecordedSwitch : ContendedEventSwitch {
  bool set_contended_events(bool on) override {
    switched.push_back(on);
    return !refuse;
  }
  bool set_other_events(bool on) override {
    others.push_back(on);
    return !refuse;
  }
  std::vector<bool> switched;
  std::vector<bool> others;  // MonitorWait/Waited and Breakpoint
  bool refuse = false;
};

// Contended entries as the two callbacks record them; true when the first
// claimed the lock's slot.
inline bool contend(MonitorContentionRecorder& r, int32_t hash, uint64_t wait_ns, int times = 1) {
  bool claimed = false;
  for (int i = 0; i < times; ++i) {
    auto slot = r.slot_of(hash);
    if (i == 0) claimed = slot.claimed;
    r.record_contended(slot.index, wait_ns);
  }
  return claimed;
}

inline uint64_t count_of(const MonitorContentionCollector& c, const std::string& label) {
  auto it = c.by_label().find(label);
  return it == c.by_label().end() ? 0 : it->second.count;
}

}  // namespace jvmsight::test
