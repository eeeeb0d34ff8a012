// A libjvmsight-otlp.so of interface version 1 (before spans and deadlock
// records): the agent must refuse it with one line and keep /metrics. Only
// the version function exists; the agent must not look further.
#include <cstdint>

extern "C" __attribute__((visibility("default"))) uint32_t jvmsight_otlp_abi_version(void) { return 1u; }
