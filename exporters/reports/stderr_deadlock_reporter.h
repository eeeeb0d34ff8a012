#pragma once
// A confirmed deadlock as one error line on stderr, followed by the
// jstack-like report /deadlocks shows (threads, locks, stacks): what an
// on-call engineer finds in the JVM's log. A lock-order inversion and a
// thread stuck on a lock as warnings, the same way.
#include "model/deadlock_sink.h"

namespace jvmsight {

class StderrDeadlockReporter : public DeadlockSink {
 public:
  void deadlock_confirmed(const DeadlockReport& report) override;
  void inversion_found(const LockOrderInversion& inversion) override;
  void thread_stuck(const StuckThreadReport& stuck) override;
};

}  // namespace jvmsight
