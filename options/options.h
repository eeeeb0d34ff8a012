#pragma once
// The agent's option string: "key=value,key=value", as given after
// -agentpath:libjvmsight.so= or in jcmd's JVMTI.agent_load argument.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/log.h"
#include "model/telemetry.h"

namespace jvmsight {

// Whether pauses are attributed with GC notifications (see docs/METRICS.md):
// they make the JVM do work inside every pause, which lengthens ZGC and
// Shenandoah pauses several-fold, so auto leaves them off for those.
// Options that the agent can decide for itself (auto) or the user forces.
enum class Tristate { auto_, on, off };

// Which generations of prometheus/client_java metric names /metrics serves:
// 0.x (simpleclient_hotspot: jvm_memory_bytes_used...), 1.x
// (jvm_memory_used_bytes...), both (dashboards of either kind work), or
// none (off: only jvmsight_* families, for a JVM that runs client_java too).
enum class ClientJavaNames { both, v0, v1, off };

// Who gets /threads and /deadlocks (thread names and stacks, each a
// stop-the-world dump): nobody, clients on this machine (loopback), or every
// client (non-local ones at most one dump a second between them).
enum class Details { off, local, on };

struct Options {
  std::string host = "0.0.0.0";  // bind address of the HTTP server
  int port = 9404;               // 0 = any free port (see portfile)
  std::string portfile;          // written with the bound port once listening
  log::Level log_level = log::Level::info;
  // In-native and suspended sub-states need one GetThreadState per RUNNABLE
  // thread: cheap before JDK 21, ~250 us a call on JDK 21+ (it synchronizes
  // with virtual-thread transitions). auto = only where cheap.
  Tristate native_states = Tristate::auto_;
  // The thread pools' CPU keeps what a platform thread used between the last
  // background reading and its end, told by a ThreadEnd event. On JDK 21
  // that event, enabled for any thread, costs every virtual thread's start
  // and end (Skynet 25-40%): auto = on except there.
  Tristate ended_thread_cpu = Tristate::auto_;
  // GC pauses at least this long become span records (0: every pause).
  int64_t gc_span_min_ns = 0;
  Tristate gc_notifications = Tristate::auto_;
  // jvmsight_gc_pause_seconds (OTLP jvm.gc.duration) also by cause: opt-in,
  // as the conventions make jvm.gc.cause (more series per collector).
  bool gc_cause = false;
  Details details = Details::local;
  // Who gets the contention profiles (/debug/pprof/mutex): the same choice;
  // off also takes no stacks (docs/PROFILES.md).
  Details profiles = Details::on;
  // Go's block profile rate: a contended wait of d is kept with probability
  // min(1, d / rate), scaled back (0: every wait).
  int64_t profile_rate_ns = 100'000;
  // Files holding the credentials every endpoint then asks for (never the
  // command line: ps and jcmd VM.command_line show it).
  std::string basic_auth_file;    // "user:password" lines
  std::string bearer_token_file;  // one token
  // HTTPS for every endpoint when both are given (PEM files; docs/SECURITY.md).
  std::string tls_cert_file;
  std::string tls_key_file;
  std::string tls_min_version = "1.2";  // or "1.3"
  int deadlock_check_ms = 500;          // background deadlock check interval; 0 turns it off
  int stuck_threshold_ms = 60000;       // a thread waiting this long for one lock is stuck
  int lock_classes = 20;                // top K lock classes labelled in contention metrics
  int thread_pools = 50;                // pools labelled by CPU in the thread pool metrics; 0 = none
  bool contention = true;               // JVM TI monitor contention and wait events
  // Breakpoints that count virtual-thread pinnings (21+). Off by default:
  // their capability alone costs virtual-thread workloads about 5%
  // (BENCHMARKS.md). auto: unless another native agent (a debugger) may need
  // them (agent/other_agents.h).
  Tristate pinning = Tristate::off;
  // jvmsight_virtual_threads_started_total (21+), from the JVM's thread ids
  // at no cost per thread (VirtualThreadStarts).
  bool virtual_thread_starts = true;
  // Contended entries a second above which the contention events are duty
  // cycled (on one slice in 2^k, counts scaled to the JVM's); 0 = always on.
  int contention_sampling = 1000;
  // JDK 21: virtual-thread starts a second above which the monitor events
  // and the pinning probes are duty cycled with the contention events
  // (VirtualThreadChurn); 0 = never.
  int virtual_thread_churn = 1000;
  // Contended waits at least this long become span records; 0: none.
  int64_t contended_span_min_ns = 100'000'000;
  ClientJavaNames client_java_names = ClientJavaNames::both;
  // label.<name>=<value>: added to every sample of /metrics (a sample's own
  // label of the same name wins).
  std::vector<Label> labels;
  // OTLP push (docs/OTLP.md): override OTEL_EXPORTER_OTLP_ENDPOINT / _PROTOCOL.
  std::string otlp_endpoint;
  std::string otlp_protocol;
};

struct ParsedOptions {
  Options options;
  std::string error;  // empty when the whole string was valid
  bool ok() const { return error.empty(); }
};

// Parses the whole string or reports the first problem, naming what is
// accepted. Never throws.
ParsedOptions parse_options(std::string_view text);

// The list of accepted keys, for messages and docs.
std::string accepted_option_keys();

}  // namespace jvmsight
