#include "exporters/http/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <string>

#include "common/log.h"
#include "exporters/http/http_connection.h"
#include "exporters/http/http_request.h"
#include "exporters/http/server_loop.h"

namespace jvmsight {
namespace {

const char* reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 401:
      return "Unauthorized";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Payload Too Large";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    case 429:
      return "Too Many Requests";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Internal Server Error";
  }
}

}  // namespace

std::unique_ptr<HttpServer> HttpServer::start(const std::string& host, int port, std::vector<HttpRoute> routes,
                                              std::string& error) {
  HttpServerConfig config;
  config.host = host;
  config.port = port;
  return start(std::move(config), std::move(routes), error);
}

std::string host_port(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string serialize_response(const HttpResponse& r, bool head) {
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) +
                    "\r\nContent-Type: " + r.content_type + "\r\nContent-Length: " + std::to_string(r.body.size()) +
                    "\r\nCache-Control: no-store\r\nConnection: close\r\n";
  bool allow = false;
  for (const auto& [name, value] : r.headers) {
    out += name + ": " + value + "\r\n";
    allow = allow || name == "Allow";
  }
  if (r.status == 405 && !allow) out += "Allow: GET, HEAD\r\n";
  out += "\r\n";
  if (!head) out += r.body;
  return out;
}

namespace {

// "" when the limits and TLS settings can be served.
std::string check_config(const HttpServerConfig& c) {
  if (c.max_connections < 1 || c.max_request_bytes < 64 || c.request_timeout_ms < 1 || c.cpu_percent < 1)
    return "the HTTP server's limits must be positive";
  if (!c.tls.enabled()) return "";
  if (c.tls.cert_file.empty() || c.tls.key_file.empty()) return "HTTPS needs both tls_cert_file and tls_key_file";
  if (!valid_tls_min_version(c.tls.min_version)) return "tls_min_version must be 1.2 or 1.3";
  return "";
}

// A non-blocking socket listening on host:port, or -1 and error set.
int listen_socket(const HttpServerConfig& c, std::string& error) {
  const std::string listen = host_port(c.host, c.port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port_text = std::to_string(c.port);
  int resolved = getaddrinfo(c.host.c_str(), port_text.c_str(), &hints, &found);
  if (resolved != 0 || found == nullptr) {
    error = "cannot listen on " + listen + ": " + (resolved != 0 ? gai_strerror(resolved) : "no such address");
    return -1;
  }
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int on = 1;
  bool listening = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == 0 &&
                   bind(fd, found->ai_addr, found->ai_addrlen) == 0 && ::listen(fd, c.listen_backlog) == 0;
  const int why = errno;
  freeaddrinfo(found);
  if (listening) return fd;
  if (fd >= 0) ::close(fd);
  error = "cannot listen on " + listen + ": " + std::strerror(why) +
          (why == EADDRINUSE ? " (is another process using the port?)" : "");
  return -1;
}

int bound_port(int fd) {
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  return ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                           : reinterpret_cast<sockaddr_in&>(bound).sin_port);
}

}  // namespace

std::unique_ptr<HttpServer> HttpServer::start(HttpServerConfig cfg, std::vector<HttpRoute> routes, std::string& error) {
  error = check_config(cfg);
  if (!error.empty()) return nullptr;
  std::unique_ptr<HttpServer> server(new HttpServer());
  server->routes_ = std::move(routes);
  server->config_ = std::move(cfg);
  const HttpServerConfig& c = server->config_;
  std::unique_ptr<TlsServer> tls;
  if (c.tls.enabled()) {
    tls = TlsServer::create(c.tls, error);
    if (!tls) {
      error = "HTTPS on " + host_port(c.host, c.port) + ": " + error;
      return nullptr;
    }
  }
  const int fd = listen_socket(c, error);
  if (fd < 0) return nullptr;
  server->port_ = bound_port(fd);
  server->loop_ = ServerLoop::start(fd, std::move(tls), c, *server, error);
  if (!server->loop_) return nullptr;
  return server;
}

HttpServer::~HttpServer() = default;

int HttpServer::body_size(std::string_view head, size_t& size) const {
  size = 0;
  if (config_.max_body_bytes <= 0) return 0;  // no route takes a body: whatever follows is drained
  RequestHead parsed;
  if (parse_request_head(head, parsed) != 0 || parsed.method != "POST") return 0;  // answered by respond
  if (parsed.has_transfer_encoding) return 411;
  if (parsed.content_length > config_.max_body_bytes) return 413;
  size = parsed.content_length > 0 ? static_cast<size_t>(parsed.content_length) : 0;
  return 0;
}

std::string HttpServer::respond(std::string_view head, std::string body, HttpConnection& c) const {
  RequestHead parsed;
  int refused = parse_request_head(head, parsed);
  if (refused != 0) return serialize_response(plain_response(refused, std::string(reason(refused)) + "\n"), false);
  HttpResponse resp;
  try {
    HttpRequest req;
    req.method = parsed.method;
    req.path = parsed.path;
    req.query = parsed.query;
    req.remote_addr = c.remote_addr;
    req.local = c.local;
    req.body = std::move(body);
    resp = route(req, parsed.has_authorization ? parsed.authorization.c_str() : nullptr);
  } catch (const std::exception& e) {
    log::debug("http endpoint failed: ", e.what());
    resp = plain_response(500, "internal error\n");
  } catch (...) {
    resp = plain_response(500, "internal error\n");
  }
  if (resp.later) {
    c.later = std::move(resp.later);
    c.head_only = parsed.method == "HEAD";
    c.deadline = HttpClock::now() + resp.after;
    return "";
  }
  return serialize_response(resp, parsed.method == "HEAD");
}

HttpResponse HttpServer::route(const HttpRequest& req, const char* authorization) const {
  const Credentials& credentials = config_.credentials;
  if (!credentials.empty() && !credentials.accepts(authorization)) {
    HttpResponse resp{401, plain_content_type, "authentication required\n"};
    // Every scheme that would be accepted, one field each (RFC 9110 11.6.1).
    if (credentials.basic) resp.headers.emplace_back("WWW-Authenticate", "Basic realm=\"jvmsight\", charset=\"UTF-8\"");
    if (credentials.bearer) resp.headers.emplace_back("WWW-Authenticate", "Bearer realm=\"jvmsight\"");
    return resp;
  }
  const bool get = req.method == "GET" || req.method == "HEAD";
  const bool post = req.method == "POST" && config_.max_body_bytes > 0;
  if (!get && !post) return {405, plain_content_type, "only GET and HEAD are served\n"};
  HttpResponse resp{404, plain_content_type, "not found; endpoints:"};
  for (const auto& r : routes_) {
    if (r.path == req.path) {
      if (r.post != post) {
        HttpResponse wrong{405, plain_content_type, r.path + (r.post ? " takes POST\n" : " takes GET and HEAD\n")};
        if (r.post) wrong.headers.emplace_back("Allow", "POST");
        return wrong;
      }
      if (r.local_only && !req.local)
        return {403, plain_content_type,
                r.path + " is served only to clients on this machine (loopback); see the details option\n"};
      if (r.remote_rate_limit && !req.local && !r.remote_rate_limit->try_acquire()) {
        HttpResponse busy{429, plain_content_type, "at most one thread dump a second for remote clients; try again\n"};
        busy.headers.emplace_back("Retry-After", "1");
        return busy;
      }
      return r.endpoint->answer(req);
    }
    resp.body += " " + r.path;
  }
  resp.body += "\n";
  return resp;
}

HttpResponse plain_response(int status, std::string body) { return {status, plain_content_type, std::move(body)}; }

HttpResponse busy_response() { return plain_response(503, "JVM busy or exiting; try again\n"); }

std::string query_param(const std::string& query, const std::string& key) {
  size_t pos = 0;
  while (pos <= query.size()) {
    size_t amp = query.find('&', pos);
    if (amp == std::string::npos) amp = query.size();
    std::string item = query.substr(pos, amp - pos);
    size_t eq = item.find('=');
    if (item.substr(0, eq) == key) return eq == std::string::npos ? "" : item.substr(eq + 1);
    pos = amp + 1;
  }
  return "";
}

}  // namespace jvmsight
