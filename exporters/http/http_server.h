#pragma once
// A small HTTP/1.1 server for the exporter endpoints: one thread of its own
// (jvmsight-http, not attached to the JVM) that waits in poll() on the
// listening socket and its connections, non-blocking, one request per
// connection. Handlers run on that thread: they must never call into the
// JVM, only ask the agent thread and wait (one request at a time: the
// agent thread answers one at a time anyway).
//
// Why one thread and no worker pool: a hand-off between threads is a futex
// wake, and in a JVM with thousands of parked threads each wake walks
// hundreds of waiters (Linux 6.16+ sizes a process's futex hash by its CPUs;
// BENCHMARKS-HISTORY.md, "The whole scrape without civetweb"). A socket's
// readiness wakes only its own waiter.
#include <poll.h>
#include <sys/socket.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "exporters/http/access.h"
#include "exporters/http/tls.h"

namespace jvmsight {

constexpr const char* plain_content_type = "text/plain; charset=utf-8";
constexpr const char* json_content_type = "application/json";

struct HttpRequest {
  std::string method;  // "GET", "HEAD", or "POST" (routes that take a body)
  std::string path;
  std::string query;        // after '?', raw
  std::string remote_addr;  // the client's address ("127.0.0.1", "::1", "::ffff:10.0.0.1")
  // The client is on this machine: it came from a loopback address AND
  // connected to one. A sidecar proxy forwarding from 127.0.0.6 to the pod's
  // own address is not local (docs/SECURITY.md).
  bool local = false;
  std::string body;  // POST routes only: Content-Length bytes
};

struct HttpResponse;

// An answer a route gives later (?seconds=N of a profile): the server keeps
// the connection, never its thread, and asks for the response once the time
// is up. The connection counts as unfinished meanwhile, so a client holding
// many of them loses its oldest to a newcomer (slot_policy.h).
class DeferredResponse {
 public:
  virtual ~DeferredResponse() = default;
  virtual HttpResponse respond() = 0;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = plain_content_type;
  std::string body;
  // Extra response headers; names and values from our code only, never from a request.
  std::vector<std::pair<std::string, std::string>> headers = {};
  // Set: nothing is sent now; later->respond() is, after `after`.
  std::shared_ptr<DeferredResponse> later = nullptr;
  std::chrono::milliseconds after{0};
};

// What answers one route, one class per endpoint: MetricsEndpoint
// (exporters/prometheus), ThreadsEndpoint, DeadlocksEndpoint and GcEndpoint
// (exporters/reports), LandingPage, the injector's endpoints. Runs on the
// server's thread: it never calls into the JVM, it asks its source (the
// agent thread) and waits. May throw: the client gets 500.
class HttpEndpoint {
 public:
  virtual ~HttpEndpoint() = default;
  virtual HttpResponse answer(const HttpRequest& request) = 0;
};

struct HttpRoute {
  std::string path;  // exact match
  std::shared_ptr<HttpEndpoint> endpoint;
  std::string summary;  // one line for the landing page
  // Served only to local (loopback) clients; others get 403.
  bool local_only = false;
  // Non-local clients share this limit with every route holding it (429 when
  // too soon); local clients are not limited.
  std::shared_ptr<DumpRateLimit> remote_rate_limit = nullptr;
  // POST with a body (at most max_body_bytes) instead of GET and HEAD.
  bool post = false;
};

// The system calls of the server's thread whose failure it must survive;
// tests put failing ones here (tests/hostile/). Defaults: the real ones.
struct ServerCalls {
  std::function<int(pollfd* fds, nfds_t count, int timeout_ms)> poll = ::poll;
  std::function<int(int fd, sockaddr* addr, socklen_t* len, int flags)> accept = ::accept4;
};

// The server's limits against slow or greedy clients, and who may call it.
// How they keep a scraper in under a flood: docs/SECURITY.md.
struct HttpServerConfig {
  std::string host = "127.0.0.1";
  int port = 0;
  // A whole request (line and headers, TLS handshake included) must arrive
  // within this, and each write of the answer must make progress within it.
  int request_timeout_ms = 10000;
  // Request line plus headers, in bytes; larger requests are refused.
  int max_request_bytes = 8192;
  // A POST body, in bytes (Content-Length; no chunked bodies). 0: no route
  // takes one, and bodies are not read.
  int max_body_bytes = 0;
  // Connections open at once. When all are taken, a new one still gets in:
  // the address holding the most slots loses its oldest unfinished one.
  int max_connections = 64;
  // The kernel caps it at net.core.somaxconn.
  int listen_backlog = SOMAXCONN;
  // The server thread's CPU over time, in percent of a core: past it the
  // thread pauses between turns (floods cost at most this much).
  int cpu_percent = 25;
  // When not empty, every endpoint asks for one of these (401 otherwise).
  Credentials credentials;
  // HTTPS instead of HTTP when a certificate is given (tls.h).
  TlsConfig tls;
  // Which client addresses count as local (tests narrow it to 127.0.0.1);
  // the connection must also have been made to a loopback address.
  std::function<bool(const std::string& remote_addr)> is_local = is_loopback_address;
  ServerCalls calls;
};

class ServerLoop;  // server_loop.h: the thread and its sockets
struct HttpConnection;

// What the server's connections make of a request: ConnectionSteps
// (http_connection.cpp) asks once a head, then its body, have arrived.
// HttpServer answers.
class RequestAnswerer {
 public:
  virtual ~RequestAnswerer() = default;
  // How many body bytes follow a head, or the status refusing it (411, 413).
  virtual int body_size(std::string_view head, size_t& size) const = 0;
  // The bytes to send back for a complete request from c, or "" with
  // c.later set (and c.deadline: when) to answer later.
  virtual std::string respond(std::string_view head, std::string body, HttpConnection& c) const = 0;
};

class HttpServer : public RequestAnswerer {
 public:
  // Binds host:port (port 0: any free port) and serves the routes. On failure
  // returns null and sets error to one readable sentence.
  static std::unique_ptr<HttpServer> start(HttpServerConfig config, std::vector<HttpRoute> routes, std::string& error);
  static std::unique_ptr<HttpServer> start(const std::string& host, int port, std::vector<HttpRoute> routes,
                                           std::string& error);
  ~HttpServer();  // stops the thread (after the request it is answering) and closes every socket
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }

 private:
  HttpServer() = default;
  // Or "" with c.later set: the route answers later.
  std::string respond(std::string_view head, std::string body, HttpConnection& c) const override;
  int body_size(std::string_view head, size_t& size) const override;
  // Access checks, then the route's endpoint.
  HttpResponse route(const HttpRequest& req, const char* authorization) const;

  int port_ = 0;
  HttpServerConfig config_;
  std::vector<HttpRoute> routes_;
  std::unique_ptr<ServerLoop> loop_;
};

// "host:port", or "[host]:port" for an IPv6 host: for messages and URLs.
std::string host_port(const std::string& host, int port);

// The bytes of an answer: status line, headers, body (none for HEAD).
std::string serialize_response(const HttpResponse& r, bool head);

// The answers several endpoints share, written once.
HttpResponse plain_response(int status, std::string body);
// 503: no snapshot could be had in time (JVM busy or exiting), never zeros.
HttpResponse busy_response();

// Returns the value of key in a query string ("a=1&format=json"), or "".
std::string query_param(const std::string& query, const std::string& key);

}  // namespace jvmsight
