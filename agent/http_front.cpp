#include "agent/http_front.h"

#include <optional>
#include <string>

#include "agent/portfile.h"
#include "common/log.h"
#include "exporters/http/landing_page.h"
#include "exporters/prometheus/metrics_endpoint.h"
#include "exporters/reports/report_endpoints.h"

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

void add_detail_routes(const Options& options, HttpSources s, std::vector<HttpRoute>& routes) {
  ThreadsSource dumps = [s] {
    return s.agent_thread
        .call<std::optional<std::vector<ThreadRecord>>>([s] { return s.threads.dump_all(); }, snapshot_timeout)
        .value_or(std::nullopt);
  };
  DeadlocksSource deadlocks = [s] {
    return s.agent_thread.call<std::vector<DeadlockReport>>([s] { return s.deadlocks.current_reports(); },
                                                            snapshot_timeout);
  };
  auto remote_dumps = std::make_shared<DumpRateLimit>(std::chrono::seconds(1));
  routes.push_back(detail_route(threads_endpoint(std::move(dumps)), options, remote_dumps));
  routes.push_back(detail_route(deadlocks_endpoint(std::move(deadlocks)), options, remote_dumps));
}

}  // namespace

std::vector<HttpRoute> agent_routes(const Options& options, HttpSources s) {
  std::vector<HttpRoute> routes;
  routes.push_back(metrics_endpoint(
      [s] { return s.agent_thread.call<MetricFamilies>([s] { return s.metrics.collect(); }, snapshot_timeout); },
      options.labels));
  routes.push_back(
      gc_endpoint([s] { return s.agent_thread.call<GcReport>([s] { return s.gc.report(); }, snapshot_timeout); }));
  if (options.details != Details::off) add_detail_routes(options, s, routes);
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
