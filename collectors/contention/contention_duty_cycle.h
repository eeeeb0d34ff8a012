#pragma once
// Duty cycling of the monitor contention events, on the agent thread. Time
// goes in slices; while the contended-entry rate stays under the
// contention_sampling bound the events stay on and count every entry. Above
// it, a cycle is 2^k slices: the events are on for the first and off for the
// rest, so at the stress extreme they cost 1/2^k of HotSpot's event posting
// (and the callbacks). Totals stay exact: each cycle's end flushes the
// collector, which scales what the events saw to the JVM's own count
// (MonitorContentionCollector::flush_scaled), and that count sets the next k.
// On JDK 21 virtual threads started fast set a lowest k too
// (VirtualThreadChurn), and then the wait and Breakpoint events are cycled
// with the contended ones: there any thread-filterable event enabled costs
// every virtual thread's start. Waits and pinnings seen in an on phase then
// stand for 2^k each (EventPhase). With contention=off the cycle runs for
// the churn alone, turning the pinning breakpoints only.
#include <chrono>

#include "collectors/contention/contention_sampler.h"
#include "collectors/contention/monitor_contention_collector.h"
#include "collectors/contention/monitor_contention_recorder.h"
#include "collectors/contention/virtual_thread_churn.h"

namespace jvmsight {

// Turns MonitorContendedEnter/Entered on or off: the agent's
// JvmtiContendedEvents (agent/event_callbacks.h); scripted in unit tests.
class ContendedEventSwitch {
 public:
  virtual ~ContendedEventSwitch() = default;
  // False if the JVM refused.
  virtual bool set_contended_events(bool on) = 0;
  // The other thread-filterable events: MonitorWait/Waited and Breakpoint.
  virtual bool set_other_events(bool on) = 0;
};

class ContentionDutyCycle {
 public:
  using Clock = std::chrono::steady_clock;
  // One on-phase: long enough to see waits of a good part of it whole (a
  // wait split across phases is not timed), short enough that the events are
  // off most of a second at the stress extreme.
  static constexpr std::chrono::milliseconds slice{250};
  // While always on, the rate is checked every this many slices (1 s).
  static constexpr uint32_t rate_slices = 4;

  // collector: null where the contended events are not enabled
  // (contention=off), and then only churn cycles, and only the other
  // events. churn: null where virtual threads cost nothing per event (not
  // JDK 21).
  ContentionDutyCycle(MonitorContentionRecorder& recorder, MonitorContentionCollector* collector,
                      ContentionSampler sampler, ContendedEventSwitch& events, VirtualThreadChurn* churn = nullptr)
      : recorder_(recorder), collector_(collector), sampler_(sampler), events_(events), churn_(churn) {}

  // Every slice (agent thread). now: for tests.
  void tick(Clock::time_point now = Clock::now());
  bool events_on() const { return on_; }
  // Whether the wait and Breakpoint events are cycled too.
  bool others_cycled() const { return others_cycled_; }
  // Whether the events were off at any time since the last call: new
  // blocking may then have gone unseen (the deadlock check's shortcut).
  bool blind_since_last_asked();

 private:
  void switch_events(bool on);
  uint32_t churn_shift(Clock::time_point now) { return churn_ ? churn_->shift(now) : 0; }

  MonitorContentionRecorder& recorder_;
  MonitorContentionCollector* collector_;
  ContentionSampler sampler_;
  ContendedEventSwitch& events_;
  VirtualThreadChurn* churn_;
  uint32_t shift_ = 0;
  uint32_t slice_ = 0;  // slices since the cycle (or, always on, the rate check) began
  bool on_ = true;
  bool blind_ = false;
  bool refused_ = false;
  bool others_cycled_ = false;  // this cycle turns the other events off after its first slice
  bool others_off_ = false;
  Clock::time_point since_{};  // when the current cycle or rate check began
};

}  // namespace jvmsight
