#pragma once
// The version of the interface between libjvmsight.so and libjvmsight-otlp.so
// (otlp_plugin.h), included by both sides: the agent refuses a plugin whose
// jvmsight_otlp_abi_version() differs, and the plugin an agent whose
// jvmsight_otlp_host.abi_version does.
//
// The number is written by hand, but it cannot drift from the interface: the
// fingerprint below is computed at compile time from what crosses the
// boundary (every entry point's signature, the layout of the C structs, and
// the size of each C++ model type the void* parameters stand for), and a
// static_assert ties it to the number. Change any of them and neither side
// compiles until JVMSIGHT_OTLP_ABI_VERSION is bumped and the new fingerprint
// (the compiler prints it) written beside it. Both shared objects always
// come from one build; the version guards against mixed builds.
#include <stddef.h>
#include <stdint.h>

#include "exporters/otlp/otlp_plugin.h"

#define JVMSIGHT_OTLP_ABI_VERSION 6u

#ifdef __cplusplus
#include "model/deadlock.h"
#include "model/lock_order.h"
#include "model/span.h"
#include "model/telemetry.h"

namespace jvmsight::otlp::abi {

// The fingerprint of interface version JVMSIGHT_OTLP_ABI_VERSION.
constexpr uint64_t expected_fingerprint = 15652847123688730331ull;

constexpr uint64_t mix(uint64_t h, uint64_t v) {  // FNV-1a over v's 8 bytes
  for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 0x100000001b3ull;
  return h;
}
template <class... V>
constexpr uint64_t mix_all(uint64_t h, V... values) {
  ((h = mix(h, static_cast<uint64_t>(values))), ...);
  return h;
}

// A code per type that may appear in an entry point; a type without one
// does not compile, so a new parameter type must be added here (and the
// version bumped).
template <class T>
struct Code;
#define JVMSIGHT_OTLP_ABI_CODE(type, code)  \
  template <>                               \
  struct Code<type> {                       \
    static constexpr uint64_t value = code; \
  }
JVMSIGHT_OTLP_ABI_CODE(void, 1);
JVMSIGHT_OTLP_ABI_CODE(uint32_t, 2);
JVMSIGHT_OTLP_ABI_CODE(int32_t, 3);
JVMSIGHT_OTLP_ABI_CODE(int64_t, 4);
JVMSIGHT_OTLP_ABI_CODE(const char*, 5);
JVMSIGHT_OTLP_ABI_CODE(const void*, 6);
JVMSIGHT_OTLP_ABI_CODE(void*, 7);
JVMSIGHT_OTLP_ABI_CODE(jvmsight_otlp*, 8);
JVMSIGHT_OTLP_ABI_CODE(const jvmsight_otlp_host*, 9);
JVMSIGHT_OTLP_ABI_CODE(jvmsight_otlp_schedule*, 10);
#undef JVMSIGHT_OTLP_ABI_CODE

template <class R, class... A>
constexpr uint64_t signature(uint64_t h, R (*)(A...)) {
  return mix_all(h, sizeof...(A), Code<R>::value, Code<A>::value...);
}

#define JVMSIGHT_OTLP_ABI_FIELD(type, field) offsetof(type, field), sizeof(type::field)

constexpr uint64_t fingerprint() {
  uint64_t h = 0xcbf29ce484222325ull;
  // The entry points, in the order the loader resolves them.
  h = signature(h, jvmsight_otlp_abi_version_fn{});
  h = signature(h, jvmsight_otlp_start_fn{});
  h = signature(h, jvmsight_otlp_push_metrics_fn{});
  h = signature(h, jvmsight_otlp_push_spans_fn{});
  h = signature(h, jvmsight_otlp_push_deadlock_fn{});
  h = signature(h, jvmsight_otlp_push_inversion_fn{});
  h = signature(h, jvmsight_otlp_push_stuck_fn{});
  h = signature(h, jvmsight_otlp_append_self_metrics_fn{});
  h = signature(h, jvmsight_otlp_shutdown_fn{});
  h = mix_all(
      h, sizeof(jvmsight_otlp_host), JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_host, abi_version),
      JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_host, log_level), JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_host, endpoint),
      JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_host, protocol), JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_host, agent_version),
      JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_host, java_properties));
  h = mix_all(h, sizeof(jvmsight_otlp_schedule), JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_schedule, metrics_interval_ms),
              JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_schedule, spans_interval_ms),
              JVMSIGHT_OTLP_ABI_FIELD(jvmsight_otlp_schedule, deadlocks));
  // What the void* parameters point to, and everything inside them.
  h = mix_all(h, sizeof(MetricFamilies), sizeof(MetricFamily), sizeof(Sample), sizeof(Label), sizeof(HistogramValue),
              sizeof(ExponentialBuckets), sizeof(SummaryValue), sizeof(MetricType));
  h = mix_all(h, sizeof(std::vector<SpanRecord>), sizeof(SpanRecord));
  h = mix_all(h, sizeof(DeadlockReport), sizeof(DeadlockCycle), sizeof(WaitEdge), sizeof(LockId), sizeof(LockKind),
              sizeof(ThreadRecord), sizeof(FrameRecord), sizeof(LockRef), sizeof(ThreadKey));
  h = mix_all(h, sizeof(LockOrderInversion), sizeof(LockOrder), sizeof(StuckThreadReport));
  return h;
}
#undef JVMSIGHT_OTLP_ABI_FIELD

// Fails to compile with both numbers in the message when they differ.
template <uint64_t computed, uint64_t expected>
struct Matches {
  static_assert(computed == expected,
                "the OTLP plugin interface changed: bump JVMSIGHT_OTLP_ABI_VERSION and set expected_fingerprint "
                "to the computed value shown here");
  static constexpr bool value = true;
};
static_assert(Matches<fingerprint(), expected_fingerprint>::value);

}  // namespace jvmsight::otlp::abi
#endif
