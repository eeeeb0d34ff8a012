#pragma once
#include <cstdint>

namespace jvmsight {

// Where the wait and Breakpoint events are duty cycled with the contended
// ones (JDK 21, virtual threads started fast: ContentionDutyCycle), what a
// callback at a wait's or a pinning's end needs: its start must be from
// after start_ns, when the events were last turned on (else it fell in an
// off phase, or is a stamp left from one whose end was missed), and it
// stands for 2^shift. start_ns 0: never turned off, every start usable.
struct EventPhase {
  uint64_t start_ns = 0;
  uint32_t shift = 0;
  // Whether something that began `elapsed` ns before now began at or after
  // since_ns. since_ns > now: the events were enabled again after the
  // callback read its clock, so it began in an earlier phase.
  static bool began_since(uint64_t since_ns, uint64_t elapsed, uint64_t now_ns) {
    return since_ns <= now_ns && elapsed <= now_ns - since_ns;
  }
  // A start `elapsed` ns before now.
  bool usable(uint64_t elapsed, uint64_t now_ns) const {
    return start_ns == 0 || began_since(start_ns, elapsed, now_ns);
  }
  uint64_t weight() const { return uint64_t{1} << shift; }
};

}  // namespace jvmsight
