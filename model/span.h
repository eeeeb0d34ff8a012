#pragma once
// Exporter-neutral span records and the bounded queue that holds them until
// an exporter (OTLP next) takes them. Producers never wait for consumers:
// a full queue drops the new span and counts the drop.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "model/telemetry.h"

namespace jvmsight {

struct SpanRecord {
  std::string name;           // e.g. "gc.pause"
  int64_t start_unix_ns = 0;  // wall clock
  int64_t end_unix_ns = 0;
  std::vector<Label> attributes;  // e.g. gc, action, cause
};

class SpanQueue {
 public:
  explicit SpanQueue(size_t capacity) : capacity_(capacity) {}

  // O(1) under a lock held only for the copy; false (and counted) when full.
  bool push(SpanRecord span);
  // Takes up to max spans, oldest first (the exporter's side).
  std::vector<SpanRecord> take(size_t max);
  // Copies what is queued without taking it (for the /gc report).
  std::vector<SpanRecord> peek() const;

  size_t size() const;
  size_t capacity() const { return capacity_; }
  uint64_t dropped() const;
  uint64_t accepted() const;

 private:
  const size_t capacity_;
  mutable std::mutex mutex_;
  std::deque<SpanRecord> spans_;
  uint64_t dropped_ = 0;
  uint64_t accepted_ = 0;
};

}  // namespace jvmsight
