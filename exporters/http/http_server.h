#pragma once
// A small HTTP/1.1 server for the exporter endpoints, on civetweb. Handlers
// run on civetweb's worker threads (100 KiB stacks, not attached to the JVM):
// they must never call into the JVM, only ask the agent thread and wait.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct mg_context;
struct mg_connection;

namespace jvmsight {

constexpr const char* plain_content_type = "text/plain; charset=utf-8";
constexpr const char* json_content_type = "application/json";

struct HttpRequest {
  std::string path;
  std::string query;  // after '?', raw
};

struct HttpResponse {
  int status = 200;
  std::string content_type = plain_content_type;
  std::string body;
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

struct HttpRoute {
  std::string path;  // exact match
  HttpHandler handler;
  std::string summary;  // one line for the landing page
};

class HttpServer {
 public:
  // Binds host:port (port 0: any free port) and serves the routes. On failure
  // returns null and sets error to one readable sentence.
  static std::unique_ptr<HttpServer> start(const std::string& host, int port, std::vector<HttpRoute> routes,
                                           std::string& error);
  ~HttpServer();  // stops civetweb; takes a second or two, so not at JVM exit
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }

 private:
  HttpServer() = default;
  static int dispatch(mg_connection* conn, void* server);

  mg_context* ctx_ = nullptr;
  int port_ = 0;
  std::vector<HttpRoute> routes_;
};

// The answers several endpoints share, written once.
HttpResponse plain_response(int status, std::string body);
// 503: no snapshot could be had in time (JVM busy or exiting), never zeros.
HttpResponse busy_response();

// A route that serves a snapshot the source takes (on the agent thread; the
// handler only waits), rendered; 503 when none came in time.
template <class Snapshot>
HttpRoute snapshot_route(std::string path, std::string summary, std::function<std::optional<Snapshot>()> source,
                         std::function<HttpResponse(const Snapshot&)> render) {
  return {std::move(path),
          [source = std::move(source), render = std::move(render)](const HttpRequest&) {
            auto snapshot = source();
            return snapshot ? render(*snapshot) : busy_response();
          },
          std::move(summary)};
}

// Returns the value of key in a query string ("a=1&format=json"), or "".
std::string query_param(const std::string& query, const std::string& key);

}  // namespace jvmsight
