#include "agent/http_front.h"

#include <optional>
#include <string>

#include "agent/portfile.h"
#include "common/log.h"
#include "exporters/http/landing_page.h"
#include "exporters/pprof/pprof_endpoint.h"

namespace jvmsight {
namespace {

// Names and stacks, and a stop-the-world dump each (docs/SECURITY.md):
// local clients only by default; with details=on, remote clients get at
// most one dump a second between them (remote_dumps, shared by both routes).
HttpRoute detail_route(HttpRoute route, const Options& options, const std::shared_ptr<DumpRateLimit>& remote_dumps) {
  route.local_only = options.details == Details::local;
  route.remote_rate_limit = remote_dumps;
  return route;
}

// A contention profile's snapshots, taken on the agent thread.
class AgentProfileSource : public ProfileSource {
 public:
  AgentProfileSource(AgentAnswers& answers, AgentAnswers::Profile which) : answers_(answers), which_(which) {}
  std::optional<ContentionProfile> snapshot() override { return answers_.profile(which_); }

 private:
  AgentAnswers& answers_;
  AgentAnswers::Profile which_;
};

// Stacks of the application's code (docs/PROFILES.md): served where /metrics
// is, or to loopback clients only with profiles=local.
void add_profile_routes(const Options& options, AgentAnswers& answers, std::vector<HttpRoute>& routes) {
  if (options.profiles == Details::off) return;
  if (answers.contention().serves_mutex_profile()) {
    routes.push_back(profile_route(
        "/debug/pprof/mutex", "contended synchronized entries by waiting stack (pprof; ?seconds=N, ?debug=1)", "mutex",
        std::make_shared<AgentProfileSource>(answers, AgentAnswers::Profile::mutex)));
    routes.back().local_only = options.profiles == Details::local;
  }
  if (answers.contention().serves_block_profile()) {
    routes.push_back(
        profile_route("/debug/pprof/block",
                      "threads parked on java.util.concurrent locks by waiting stack (pprof; ?seconds=N, ?debug=1)",
                      "block", std::make_shared<AgentProfileSource>(answers, AgentAnswers::Profile::block)));
    routes.back().local_only = options.profiles == Details::local;
  }
}

}  // namespace

std::optional<MetricFamilies> AgentAnswers::metrics() {
  return agent_thread_.call([this] { return metrics_.collect(); }, snapshot_timeout);
}

std::optional<std::vector<ThreadRecord>> AgentAnswers::thread_dump() {
  // nullopt from the dump itself (refused by the JVM) or from the wait.
  return agent_thread_.call([this] { return threads_.dump_all(); }, snapshot_timeout).value_or(std::nullopt);
}

std::optional<DeadlocksPage> AgentAnswers::deadlocks() {
  return agent_thread_.call([this] { return deadlocks_.current_page(); }, snapshot_timeout);
}

std::optional<GcReport> AgentAnswers::gc_report() {
  return agent_thread_.call([this] { return gc_.report(); }, snapshot_timeout);
}

std::optional<ContentionProfile> AgentAnswers::profile(Profile which) {
  // nullopt from the profile itself (not built) or from the wait. Not a
  // pointer to ContentionSignal's member: through one, GCC 12's
  // -fsanitize=vptr check took the job's vtable for `this` and aborted the
  // JVM (scripts/sanitize.sh jvm).
  auto take = [this, which] {
    return which == Profile::mutex ? contention_.mutex_snapshot() : contention_.block_snapshot();
  };
  return agent_thread_.call(take, snapshot_timeout).value_or(std::nullopt);
}

std::vector<HttpRoute> agent_routes(const Options& options, AgentAnswers& answers) {
  std::vector<HttpRoute> routes;
  routes.push_back(metrics_endpoint(answers, options.labels));
  routes.push_back(gc_endpoint(answers));
  add_profile_routes(options, answers, routes);
  if (options.details != Details::off) {
    auto remote_dumps = std::make_shared<DumpRateLimit>(std::chrono::seconds(1));
    routes.push_back(detail_route(threads_endpoint(answers), options, remote_dumps));
    routes.push_back(detail_route(deadlocks_endpoint(answers), options, remote_dumps));
  }
  routes.push_back(landing_page(routes));
  return routes;
}

std::unique_ptr<HttpServer> serve_http(const Options& options, std::vector<HttpRoute> routes) {
  HttpServerConfig config;
  config.host = options.host;
  config.port = options.port;
  config.tls.cert_file = options.tls_cert_file;
  config.tls.key_file = options.tls_key_file;
  config.tls.min_version = options.tls_min_version;
  const bool https = config.tls.enabled();
  std::string error, warning;
  error = read_credentials(options.basic_auth_file, options.bearer_token_file, config.credentials, warning);
  if (!warning.empty()) log::warn(warning);
  std::unique_ptr<HttpServer> server;
  if (error.empty()) server = HttpServer::start(std::move(config), std::move(routes), error);
  if (!server) {
    log::error(error, "; metrics are not served, the JVM continues");
    // A portfile from an earlier run must not send scripts to a dead port.
    if (!options.portfile.empty()) {
      std::string stale = remove_portfile(options.portfile);
      if (!stale.empty()) log::warn(stale);
    }
    return nullptr;
  }
  if (!options.portfile.empty()) {
    std::string failed = write_portfile(options.portfile, server->port());
    if (!failed.empty()) log::warn(failed, "; the server listens on port ", server->port());
  }
  log::info("serving ", https ? "https://" : "http://", host_port(options.host, server->port()), "/metrics");
  return server;
}

}  // namespace jvmsight
