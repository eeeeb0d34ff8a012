#include "model/span.h"

namespace jvmsight {

bool SpanQueue::push(SpanRecord span) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (spans_.size() >= capacity_) {
    ++dropped_;
    return false;
  }
  spans_.push_back(std::move(span));
  ++accepted_;
  return true;
}

std::vector<SpanRecord> SpanQueue::take(size_t max) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<SpanRecord> out;
  while (!spans_.empty() && out.size() < max) {
    out.push_back(std::move(spans_.front()));
    spans_.pop_front();
  }
  return out;
}

std::vector<SpanRecord> SpanQueue::peek() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return {spans_.begin(), spans_.end()};
}

size_t SpanQueue::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return spans_.size();
}

uint64_t SpanQueue::dropped() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return dropped_;
}

uint64_t SpanQueue::accepted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return accepted_;
}

}  // namespace jvmsight
