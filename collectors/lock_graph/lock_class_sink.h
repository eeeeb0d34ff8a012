#pragma once
// Lock classes learned where they are seen, for whoever labels by them: the
// deadlock check's scan meets each monitor a thread is blocked on with its
// class (DeadlockDetector), and the contention collector labels contended
// entries by class (MonitorContentionCollector), which the monitor
// callbacks know only by identity hash.
#include <cstdint>
#include <map>
#include <string>

namespace jvmsight {

class LockClassSink {
 public:
  virtual ~LockClassSink() = default;
  // Identity hash -> class name. Agent thread.
  virtual void learn_classes(const std::map<int32_t, std::string>& classes) = 0;
};

}  // namespace jvmsight
