#pragma once
// The project's HTTP server on a loopback port of its own (port 0) for a
// test; the test fails (not aborts) when it cannot start.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exporters/http/http_server.h"
#include "tests/harness/endpoints.h"

namespace jvmsight::test {

inline std::unique_ptr<HttpServer> serve(HttpServerConfig config, std::vector<HttpRoute> routes) {
  std::string error;
  auto s = HttpServer::start(std::move(config), std::move(routes), error);
  EXPECT_TRUE(s) << error;
  return s;
}

inline std::unique_ptr<HttpServer> serve(std::vector<HttpRoute> routes) {
  return serve(HttpServerConfig{}, std::move(routes));
}

}  // namespace jvmsight::test
