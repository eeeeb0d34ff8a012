#include "exporters/http/http_server.h"

#include <civetweb.h>

#include <cstring>
#include <exception>
#include <string>

#include "common/log.h"

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

void send(mg_connection* conn, const HttpResponse& r, bool head) {
  std::string header = "HTTP/1.1 " + std::to_string(r.status) + " " + reason(r.status) +
                       "\r\nContent-Type: " + r.content_type + "\r\nContent-Length: " + std::to_string(r.body.size()) +
                       "\r\nCache-Control: no-store\r\nConnection: close\r\n";
  if (r.status == 405) header += "Allow: GET, HEAD\r\n";
  for (const auto& [name, value] : r.headers) header += name + ": " + value + "\r\n";
  header += "\r\n";
  mg_write(conn, header.data(), header.size());
  if (!head && !r.body.empty()) mg_write(conn, r.body.data(), r.body.size());
}

// civetweb's own error answers (a request it cannot parse, too large...)
// write the request's version token into their status line, so a client
// could put any text there ("HTTP/<anything> 400"; found by
// http_server_fuzz). Ours echo nothing from the request.
int send_error(mg_connection* conn, int status, const char*) {
  if (status < 400 || status > 599) status = 500;
  const mg_request_info* info = mg_get_request_info(conn);
  bool head = info != nullptr && info->request_method != nullptr && std::strcmp(info->request_method, "HEAD") == 0;
  try {  // called from C: nothing may escape
    send(conn, {status, plain_content_type, std::string(reason(status)) + "\n"}, head);
  } catch (...) {
  }
  return 0;  // answered (or the connection is dropped); civetweb writes nothing more
}

int log_civetweb(const mg_connection*, const char* message) {
  if (message != nullptr) log::debug("http: ", message);
  return 1;  // handled: civetweb must not print on its own
}

}  // namespace

std::unique_ptr<HttpServer> HttpServer::start(const std::string& host, int port, std::vector<HttpRoute> routes,
                                              std::string& error) {
  HttpServerConfig config;
  config.host = host;
  config.port = port;
  return start(std::move(config), std::move(routes), error);
}

std::unique_ptr<HttpServer> HttpServer::start(HttpServerConfig cfg, std::vector<HttpRoute> routes, std::string& error) {
  // Never MG_FEATURES_TLS here: when Debian's civetweb cannot load OpenSSL
  // it returns an error, yet mg_start2 then starts an HTTPS port whose first
  // connection calls a null function pointer (a crash of the JVM). Without
  // it, OpenSSL is loaded by mg_start2 for an HTTPS port, which fails cleanly.
  static const unsigned library_ready = mg_init_library(0);
  (void)library_ready;

  std::unique_ptr<HttpServer> server(new HttpServer());
  server->routes_ = std::move(routes);
  server->config_ = std::move(cfg);
  const HttpServerConfig& c = server->config_;
  if (c.tls.enabled()) {
    if (c.tls.cert_file.empty() || c.tls.key_file.empty()) {
      error = "HTTPS needs both tls_cert_file and tls_key_file";
      return nullptr;
    }
    if (!valid_tls_min_version(c.tls.min_version)) {
      error = "tls_min_version must be 1.2 or 1.3";
      return nullptr;
    }
    error = prepare_openssl(c.tls.library_dir);
    if (!error.empty()) return nullptr;
  }
  bool ipv6 = c.host.find(':') != std::string::npos;
  std::string listen =
      (ipv6 ? "[" + c.host + "]" : c.host) + ":" + std::to_string(c.port) + (c.tls.enabled() ? "s" : "");
  std::string workers = std::to_string(c.workers), timeout = std::to_string(c.request_timeout_ms),
              max_request = std::to_string(c.max_request_bytes), queue = std::to_string(c.queued_connections),
              backlog = std::to_string(c.listen_backlog);
  // Scrapes are short and rare; a few workers bound the threads we add to
  // someone else's JVM, and the limits bound what a client can make them do.
  const char* config[] = {"listening_ports",
                          listen.c_str(),
                          "num_threads",
                          workers.c_str(),
                          "request_timeout_ms",
                          timeout.c_str(),
                          "enable_keep_alive",
                          "no",
                          "max_request_size",
                          max_request.c_str(),
                          "connection_queue",
                          queue.c_str(),
                          "listen_backlog",
                          backlog.c_str(),
                          nullptr};
  mg_callbacks callbacks{};
  callbacks.log_message = log_civetweb;
  callbacks.http_error = send_error;
  if (c.tls.enabled()) callbacks.init_ssl = &HttpServer::init_tls;
  mg_init_data init{};
  init.callbacks = &callbacks;
  init.user_data = server.get();
  init.configuration_options = config;
  char text[256] = {0};
  unsigned code = 0;
  mg_error_data err{&code, text, sizeof(text)};
  server->ctx_ = mg_start2(&init, &err);
  if (server->ctx_ == nullptr && !server->tls_error_.empty()) {
    error = "HTTPS on " + listen + ": " + server->tls_error_;
    return nullptr;
  }
  if (server->ctx_ == nullptr) {
    error = "cannot listen on " + listen + ": " + (text[0] ? std::string(text) : std::string("unknown error")) +
            (std::strstr(text, "in use") || std::strstr(text, "bind") ? " (is another process using the port?)" : "");
    return nullptr;
  }
  mg_set_request_handler(server->ctx_, "/", &HttpServer::dispatch, server.get());
  mg_server_port ports[4];
  int n = mg_get_server_ports(server->ctx_, 4, ports);
  server->port_ = n > 0 ? ports[0].port : c.port;
  return server;
}

HttpServer::~HttpServer() {
  if (ctx_ != nullptr) mg_stop(ctx_);
}

int HttpServer::init_tls(void* ssl_ctx, void* self) {
  // civetweb calls this from C, once, inside mg_start2: -1 makes it fail.
  auto* server = static_cast<HttpServer*>(self);
  try {
    server->tls_error_ = configure_tls_context(ssl_ctx, server->config_.tls);
  } catch (...) {
    server->tls_error_ = "cannot set up TLS (out of memory?)";
  }
  return server->tls_error_.empty() ? 1 : -1;  // 1: certificate and key are set, civetweb adds none
}

int HttpServer::dispatch(mg_connection* conn, void* self) {
  // civetweb calls this from C: nothing may escape.
  try {
    auto* server = static_cast<HttpServer*>(self);
    const mg_request_info* info = mg_get_request_info(conn);
    bool head = info->request_method && std::strcmp(info->request_method, "HEAD") == 0;
    bool get = info->request_method && std::strcmp(info->request_method, "GET") == 0;
    HttpRequest req;
    req.path = info->local_uri ? info->local_uri : "";
    req.query = info->query_string ? info->query_string : "";
    req.remote_addr = info->remote_addr;
    req.local = server->config_.is_local && server->config_.is_local(req.remote_addr);
    HttpResponse resp;
    const Credentials& credentials = server->config_.credentials;
    if (!credentials.empty() && !credentials.accepts(mg_get_header(conn, "Authorization"))) {
      resp = {401, plain_content_type, "authentication required\n"};
      resp.headers.emplace_back("WWW-Authenticate", credentials.basic ? "Basic realm=\"jvmsight\", charset=\"UTF-8\""
                                                                      : "Bearer realm=\"jvmsight\"");
    } else if (!get && !head) {
      resp = {405, plain_content_type, "only GET and HEAD are served\n"};
    } else {
      resp = {404, plain_content_type, "not found; endpoints:"};
      for (const auto& r : server->routes_) {
        if (r.path == req.path) {
          if (r.local_only && !req.local) {
            resp = {403, plain_content_type,
                    r.path + " is served only to clients on this machine (loopback); see the details option\n"};
          } else if (r.remote_rate_limit && !req.local && !r.remote_rate_limit->try_acquire()) {
            resp = {429, plain_content_type, "at most one thread dump a second for remote clients; try again\n"};
            resp.headers.emplace_back("Retry-After", "1");
          } else {
            resp = r.handler(req);
          }
          break;
        }
        resp.body += " " + r.path;
      }
      if (resp.status == 404 && resp.body.back() != '\n') resp.body += "\n";
    }
    send(conn, resp, head);
    return resp.status;
  } catch (const std::exception& e) {
    log::debug("http handler failed: ", e.what());
  } catch (...) {
  }
  send(conn, {500, plain_content_type, "internal error\n"}, false);
  return 500;
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
