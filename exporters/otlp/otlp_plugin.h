#pragma once
/* The narrow C interface between libjvmsight.so and libjvmsight-otlp.so.
 *
 * The agent dlopens the plugin only when an OTLP endpoint is configured
 * (agent/otlp_plugin_loader.cpp), checks jvmsight_otlp_abi_version() against
 * the JVMSIGHT_OTLP_ABI_VERSION it was built with (otlp_abi.h, which both
 * sides include, and which keeps that number true to this file), and then:
 *   - calls jvmsight_otlp_start() once, at VMInit; it says which signals are
 *     exported and how often;
 *   - every metrics interval, on its agent thread, collects the neutral model
 *     and hands it to jvmsight_otlp_push_metrics(); every spans interval it
 *     takes what the span queue holds and hands it to jvmsight_otlp_push_spans();
 *     each newly confirmed deadlock goes to jvmsight_otlp_push_deadlock(), each
 *     new lock-order inversion to jvmsight_otlp_push_inversion() and each
 *     thread newly stuck on a lock to jvmsight_otlp_push_stuck().
 *     Each copies into that signal's bounded queue and returns: no network
 *     I/O on the caller's thread;
 *   - at VMDeath, pushes a last collection and calls jvmsight_otlp_shutdown()
 *     with a deadline (about a second): it never waits longer.
 *
 * Model pointers are opaque `const void*` standing for the model types
 * named at each function (model/telemetry.h, span.h, deadlock.h, lock_order.h). That is sound only
 * because both shared objects come from one build of one source tree; the
 * ABI version guards against mixing builds of different interface versions,
 * and the loader looks for the plugin only next to libjvmsight.so.
 *
 * No C++ exception leaves any of these functions. */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the agent tells the plugin. Strings may be NULL; they are copied. */
typedef struct jvmsight_otlp_host {
  uint32_t abi_version;        /* JVMSIGHT_OTLP_ABI_VERSION */
  int log_level;               /* jvmsight::log::Level */
  const char* endpoint;        /* agent option otlp_endpoint (overrides the environment), or NULL */
  const char* protocol;        /* agent option otlp_protocol: "grpc" or "http/protobuf", or NULL */
  const char* agent_version;   /* jvmsight's version */
  const char* java_properties; /* "name=value\n" lines: the system properties of
                                  jvmsight::otlp::resource_properties, for the resource */
} jvmsight_otlp_host;

/* What the plugin tells the agent: which signals it exports, and how often. */
typedef struct jvmsight_otlp_schedule {
  int64_t metrics_interval_ms; /* 0: metrics are not exported */
  int64_t spans_interval_ms;   /* 0: spans are not exported */
  int32_t deadlocks;           /* nonzero: deadlock and lock warning records are exported */
} jvmsight_otlp_schedule;

typedef struct jvmsight_otlp jvmsight_otlp;

typedef uint32_t (*jvmsight_otlp_abi_version_fn)(void);
/* NULL when export is disabled or the configuration cannot work (the reason
 * is logged). On success *schedule says what to push and how often. */
typedef jvmsight_otlp* (*jvmsight_otlp_start_fn)(const jvmsight_otlp_host* host, jvmsight_otlp_schedule* schedule);
/* metric_families: `const jvmsight::MetricFamilies*`. */
typedef void (*jvmsight_otlp_push_metrics_fn)(jvmsight_otlp* exporter, const void* metric_families);
/* spans: `const std::vector<jvmsight::SpanRecord>*`, at most 512 of them. */
typedef void (*jvmsight_otlp_push_spans_fn)(jvmsight_otlp* exporter, const void* spans);
/* report: `const jvmsight::DeadlockReport*`. The plugin renders the log
 * record's body from it, on its logs thread. */
typedef void (*jvmsight_otlp_push_deadlock_fn)(jvmsight_otlp* exporter, const void* report);
/* The warnings before a deadlock, as WARN log records (rendered by the plugin
 * too): inversion: `const jvmsight::LockOrderInversion*`; stuck:
 * `const jvmsight::StuckThreadReport*` (model/lock_order.h). */
typedef void (*jvmsight_otlp_push_inversion_fn)(jvmsight_otlp* exporter, const void* inversion);
typedef void (*jvmsight_otlp_push_stuck_fn)(jvmsight_otlp* exporter, const void* stuck);
/* Adds the exporter's own counters per signal (sent, failed, dropped, last
 * success) to a `jvmsight::MetricFamilies*`, so /metrics and the push both
 * carry them. */
typedef void (*jvmsight_otlp_append_self_metrics_fn)(jvmsight_otlp* exporter, void* metric_families);
typedef void (*jvmsight_otlp_shutdown_fn)(jvmsight_otlp* exporter, int64_t deadline_ms);

#ifdef __cplusplus
}

#include <cctype>
#include <cstdlib>
#include <string_view>

namespace jvmsight::otlp {

// The system properties (System.getProperty) the resource is built from
// (resource.h): process.runtime.*, process.executable.path, host.arch, os.*.
inline constexpr const char* resource_properties[] = {"java.runtime.name", "java.runtime.version", "java.vm.vendor",
                                                      "java.vm.name",      "java.vm.version",      "java.home",
                                                      "os.name",           "os.version",           "os.arch"};

// Whether OTLP export is asked for: an endpoint from the agent option or the
// environment, and OTEL_SDK_DISABLED not true. Header-only so that the agent
// decides without loading the plugin (and its libraries) at all.
inline bool otlp_requested(const char* endpoint_option) {
  const char* disabled = std::getenv("OTEL_SDK_DISABLED");
  if (disabled != nullptr) {
    std::string_view d(disabled);
    if (d.size() == 4 && std::tolower(d[0]) == 't' && std::tolower(d[1]) == 'r' && std::tolower(d[2]) == 'u' &&
        std::tolower(d[3]) == 'e')
      return false;
  }
  auto set = [](const char* v) { return v != nullptr && *v != '\0'; };
  return set(endpoint_option) || set(std::getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) ||
         set(std::getenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT")) ||
         set(std::getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) || set(std::getenv("OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"));
}

}  // namespace jvmsight::otlp
#endif
