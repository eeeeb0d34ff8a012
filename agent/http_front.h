#pragma once
// The agent's HTTP side: /metrics, /gc and, unless the details option is
// off, /threads and /deadlocks (each answered on the agent thread, waited
// for at most snapshot_timeout), and the server started on the host, port,
// TLS and credentials the options name, with its portfile.
#include <chrono>
#include <memory>
#include <vector>

#include "agent/agent_thread.h"
#include "agent/deadlock_signal.h"
#include "agent/gc_signal.h"
#include "agent/metrics_snapshot.h"
#include "agent/thread_signal.h"
#include "exporters/http/http_server.h"
#include "options/options.h"

namespace jvmsight {

// A scrape waits this long for the agent thread, well inside Prometheus'
// default 10 s scrape timeout.
constexpr std::chrono::milliseconds snapshot_timeout{5000};

// What the routes read; each lives as long as the agent.
struct HttpSources {
  AgentThread& agent_thread;
  MetricsSnapshot& metrics;
  ThreadSignal& threads;
  GcSignal& gc;
  DeadlockSignal& deadlocks;
};

std::vector<HttpRoute> agent_routes(const Options& options, HttpSources sources);
// Null if the server did not start (logged; the JVM runs on without it).
std::unique_ptr<HttpServer> serve_http(const Options& options, std::vector<HttpRoute> routes);

}  // namespace jvmsight
