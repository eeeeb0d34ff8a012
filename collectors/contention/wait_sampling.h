#pragma once
// Which contended waits a profile keeps, and what a kept one stands for:
// Go's SetBlockProfileRate rule. A wait of d is kept with probability
// min(1, d / rate); a kept wait shorter than the rate stands for rate / d
// waits and rate ns of waiting (the expected values of what it represents),
// so short frequent waits and long rare ones both show, unbiased. (What the
// events do not see while duty cycled, MonitorStackRecorder makes up for.)
// Pure and allocation-free: it runs in MonitorContendedEntered.
#include <cstdint>

#include "collectors/contention/stack_table.h"

namespace jvmsight {

struct KeptWait {
  bool kept = false;
  uint64_t weight = 0;  // StackTable::weight_one per wait
  uint64_t delay_ns = 0;
};

// random: any 64 bits, uniformly distributed (wait_random).
constexpr KeptWait sample_wait(uint64_t wait_ns, uint64_t rate_ns, uint64_t random) {
  if (rate_ns == 0 || wait_ns >= rate_ns) return {true, StackTable::weight_one, wait_ns};
  if (wait_ns == 0 || random % rate_ns >= wait_ns) return {};
  return {true, StackTable::weight_one * rate_ns / wait_ns, rate_ns};
}

// A random draw for one wait, from what the callback has at hand: the
// clock's low bits move every nanosecond, the stamp differs per thread.
constexpr uint64_t wait_random(uint64_t now_ns, uint64_t salt) {
  uint64_t x = now_ns * 0x9e3779b97f4a7c15ull ^ salt;
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace jvmsight
