// jvmsight-injector: the mutating admission webhook that gives opted-in pods
// the jvmsight agent (docs/KUBERNETES.md, "Injection by annotation").
//   jvmsight-injector --tls-cert-file=tls.crt --tls-key-file=tls.key [--port=8443] ...
// Serves until SIGTERM or SIGINT. Exit 2 on bad flags, 1 when it cannot serve.
#include <signal.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "common/log.h"
#include "exporters/http/http_server.h"
#include "injector/config.h"
#include "injector/webhook.h"

using namespace jvmsight;

int main(int argc, char** argv) {
  injector::InjectorConfig config;
  bool help = false;
  std::string error = injector::parse_flags(std::vector<std::string>(argv + 1, argv + argc), config, help);
  if (help || !error.empty()) {
    (help ? std::cout : std::cerr) << (error.empty() ? "" : "jvmsight-injector: " + error + "\n")
                                   << "usage: jvmsight-injector --tls-cert-file=F --tls-key-file=F [flags]\n"
                                   << injector::flags_usage();
    return help ? 0 : 2;
  }
  log::Level level = log::Level::info;
  log::parse_level(config.log_level, level);
  log::set_level(level);

  // Block the stop signals before the server's thread starts, so it inherits
  // the mask and only sigwait below sees them.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);

  HttpServerConfig server;
  server.host = config.host;
  server.port = config.port;
  server.tls.cert_file = config.tls_cert_file;
  server.tls.key_file = config.tls_key_file;
  // A CREATE review carries one pod (etcd holds at most ~1.5 MB a value).
  // Bodies are held per connection: 16 connections x 2 MiB bounds the
  // memory a flood of large bodies can take (the chart allows 128 MiB).
  server.max_body_bytes = 2 << 20;
  server.listen_backlog = 128;
  server.is_local = [](const std::string&) { return false; };
  injector::InjectorMetrics metrics;
  auto running = HttpServer::start(server, injector::injector_routes(config, metrics), error);
  if (!running) {
    log::error("injector: ", error);
    return 1;
  }
  log::info("injector serving HTTPS on ", config.host, ":", running->port(), "; image ", config.image,
            "; agent options ", config.agent_options);
  int signal = 0;
  sigwait(&stop, &signal);
  log::info("injector stopping on signal ", signal);
  return 0;
}
