#pragma once
// The agent's HTTP side: /metrics, /gc, unless the profiles option is off
// /debug/pprof/mutex and /debug/pprof/block, and, unless the details option
// is off, /threads and /deadlocks, answered by AgentAnswers on the agent
// thread; and the server started on the host, port, TLS and credentials the
// options name, with its portfile.
#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include "agent/agent_thread.h"
#include "agent/contention_signal.h"
#include "agent/deadlock_signal.h"
#include "agent/gc_signal.h"
#include "agent/metrics_snapshot.h"
#include "agent/thread_signal.h"
#include "exporters/http/http_server.h"
#include "exporters/pprof/pprof_endpoint.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "exporters/reports/report_endpoints.h"
#include "options/options.h"

namespace jvmsight {

// A scrape waits this long for the agent thread, well inside Prometheus'
// default 10 s scrape timeout.
constexpr std::chrono::milliseconds snapshot_timeout{5000};

// What the endpoints ask for, taken on the agent thread (AgentThread::call)
// while the HTTP thread waits at most snapshot_timeout: nullopt when the
// queue was full, the wait timed out or the JVM is exiting. Lives as long as
// the agent.
class AgentAnswers : public MetricsSource, public ReportSource {
 public:
  AgentAnswers(AgentThread& agent_thread, MetricsSnapshot& metrics, ThreadSignal& threads, GcSignal& gc,
               DeadlockSignal& deadlocks, ContentionSignal& contention)
      : agent_thread_(agent_thread),
        metrics_(metrics),
        threads_(threads),
        gc_(gc),
        deadlocks_(deadlocks),
        contention_(contention) {}

  std::optional<MetricFamilies> metrics() override;
  std::optional<std::vector<ThreadRecord>> thread_dump() override;
  std::optional<DeadlocksPage> deadlocks() override;
  std::optional<GcReport> gc_report() override;
  enum class Profile { mutex, block };
  std::optional<ContentionProfile> profile(Profile which);
  ContentionSignal& contention() { return contention_; }

 private:
  AgentThread& agent_thread_;
  MetricsSnapshot& metrics_;
  ThreadSignal& threads_;
  GcSignal& gc_;
  DeadlockSignal& deadlocks_;
  ContentionSignal& contention_;
};

// The routes the options ask for, answered by `answers` (which must outlive them).
std::vector<HttpRoute> agent_routes(const Options& options, AgentAnswers& answers);
// Null if the server did not start (logged; the JVM runs on without it).
std::unique_ptr<HttpServer> serve_http(const Options& options, std::vector<HttpRoute> routes);

}  // namespace jvmsight
