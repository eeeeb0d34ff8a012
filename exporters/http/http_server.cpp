#include "exporters/http/http_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <string>

#include "common/log.h"
#include "exporters/http/http_request.h"

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

namespace {

using Clock = std::chrono::steady_clock;

// The thread's stack: handlers render reports here, nothing recursive.
constexpr size_t server_stack_bytes = 256 * 1024;
// After the answer, the client's remaining bytes are read and dropped for at
// most this long before the close: closing with unread input would reset
// the connection and could discard the answer on its way.
constexpr std::chrono::milliseconds drain_time{1000};
// accept() failing for want of descriptors or memory: try again after this,
// instead of spinning on a listening socket that stays readable.
constexpr std::chrono::milliseconds accept_backoff{100};

std::string address_text(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr, text, sizeof(text));
  else if (addr.ss_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr, text, sizeof(text));
  return text;
}

int poll_timeout(Clock::time_point now, Clock::time_point until) {
  if (until == Clock::time_point::max()) return -1;
  if (until <= now) return 0;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count() + 1;
  return static_cast<int>(std::min<long long>(ms, 60000));
}

}  // namespace

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

// The server's thread and sockets. Everything here runs on that thread,
// except start (before it) and the destructor (after it).
struct HttpServer::Loop {
  struct Connection {
    enum class Phase { handshake, reading, writing, draining, closed };
    int fd = -1;
    std::string remote_addr;
    TlsServer::Session* tls = nullptr;
    Phase phase = Phase::reading;
    short waits_for = POLLIN;  // what the last step needs of the socket (TLS may need either way)
    std::string in;            // the request head so far, then its body
    size_t head_end = 0;       // where the head ends in `in`, once it has
    size_t body_size = 0;      // the body's bytes after it
    std::string out;           // the answer
    size_t sent = 0;
    Clock::time_point deadline;
  };

  const HttpServer& server;
  const HttpServerConfig& config;
  int listen_fd = -1;
  int stop_fd = -1;
  std::unique_ptr<TlsServer> tls;
  std::vector<Connection> connections;
  Clock::time_point accept_paused_until{};
  pthread_t thread{};
  bool running = false;
  bool poll_failed = false;  // warned once

  Loop(const HttpServer& s, const HttpServerConfig& c) : server(s), config(c) {}
  ~Loop() {
    if (running) {
      uint64_t one = 1;
      if (write(stop_fd, &one, sizeof(one)) == sizeof(one)) pthread_join(thread, nullptr);
    }
    for (auto& c : connections) close_now(c);
    if (listen_fd >= 0) ::close(listen_fd);
    if (stop_fd >= 0) ::close(stop_fd);
  }

  std::chrono::milliseconds timeout() const { return std::chrono::milliseconds(config.request_timeout_ms); }

  static void* thread_main(void* self) {
    // A thread of our own, called from C: nothing may escape.
    try {
      pthread_setname_np(pthread_self(), "jvmsight-http");
      // A write to a socket the client closed returns EPIPE here instead of
      // raising SIGPIPE in a process that may not ignore it.
      sigset_t pipe;
      sigemptyset(&pipe);
      sigaddset(&pipe, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
      static_cast<Loop*>(self)->run();
    } catch (const std::exception& e) {
      log::error("http server stopped: ", e.what());
    } catch (...) {
      log::error("http server stopped");
    }
    return nullptr;
  }

  void run() {
    std::vector<pollfd> fds;
    for (;;) {
      const auto now = Clock::now();
      const bool accepting =
          static_cast<int>(connections.size()) < config.max_connections && now >= accept_paused_until;
      auto until = accepting || connections.size() >= static_cast<size_t>(config.max_connections)
                       ? Clock::time_point::max()
                       : accept_paused_until;
      fds.clear();
      fds.push_back({stop_fd, POLLIN, 0});
      fds.push_back({accepting ? listen_fd : -1, POLLIN, 0});
      for (const auto& c : connections) {
        fds.push_back({c.fd, c.waits_for, 0});
        until = std::min(until, c.deadline);
      }
      int ready = poll(fds.data(), fds.size(), poll_timeout(now, until));
      if (ready < 0) {
        const int why = errno;
        if (why == EINTR) continue;
        if (!poll_failed) log::warn("http server: poll failed: ", std::strerror(why), "; retrying");
        poll_failed = true;
        poll(nullptr, 0, static_cast<int>(accept_backoff.count()));  // a pause, not a spin
        continue;
      }
      if (ready > 0 && fds[0].revents != 0) return;  // stopped
      const size_t polled = connections.size();
      for (size_t i = 0; ready > 0 && i < polled; ++i)
        if (fds[i + 2].revents != 0) advance(connections[i]);
      if (ready > 0 && fds[1].revents != 0) accept_all();
      const auto after = Clock::now();
      for (auto& c : connections)
        if (c.phase != Connection::Phase::closed && after >= c.deadline) close_now(c);  // too slow, or drained
      connections.erase(std::remove_if(connections.begin(), connections.end(),
                                       [](const Connection& c) { return c.phase == Connection::Phase::closed; }),
                        connections.end());
    }
  }

  void accept_all() {
    while (static_cast<int>(connections.size()) < config.max_connections) {
      sockaddr_storage addr{};
      socklen_t len = sizeof(addr);
      int fd = accept4(listen_fd, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
          log::debug("http server: cannot accept a connection: ", std::strerror(errno));
          accept_paused_until = Clock::now() + accept_backoff;
        }
        return;  // EAGAIN: none left; ECONNABORTED and the like: that client is gone
      }
      int on = 1;
      setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
      Connection c;
      c.fd = fd;
      c.remote_addr = address_text(addr);
      c.deadline = Clock::now() + timeout();  // the whole request head, handshake included
      if (tls) {
        c.tls = tls->open(fd);
        if (c.tls == nullptr) {
          ::close(fd);
          continue;
        }
        c.phase = Connection::Phase::handshake;
      }
      connections.push_back(std::move(c));
      advance(connections.back());  // the request is often there already
    }
  }

  void advance(Connection& c) {
    if (c.phase == Connection::Phase::handshake) handshake(c);
    if (c.phase == Connection::Phase::reading) read_head(c);
    if (c.phase == Connection::Phase::writing) write_answer(c);
    if (c.phase == Connection::Phase::draining) drain(c);
  }

  // A TLS step's outcome: true to go on; else the socket event to wait for
  // is set, or the connection is closed (not TLS, an untrusted certificate,
  // an old version, a reset...).
  bool went_on(Connection& c, TlsServer::Step step) {
    switch (step) {
      case TlsServer::Step::done:
        return true;
      case TlsServer::Step::want_read:
        c.waits_for = POLLIN;
        return false;
      case TlsServer::Step::want_write:
        c.waits_for = POLLOUT;
        return false;
      case TlsServer::Step::over:
        break;
    }
    close_now(c);
    return false;
  }

  // The same for a plain socket's recv() or send() (n bytes moved, or -1
  // and errno): true with moved set; false when it must wait for `wait`
  // (set) or the connection is over (closed).
  bool went_on(Connection& c, ssize_t n, short wait, size_t& moved) {
    if (n > 0) {
      moved = static_cast<size_t>(n);
      return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
      c.waits_for = wait;
      return false;
    }
    close_now(c);  // the peer closed (0), or the socket failed
    return false;
  }

  void handshake(Connection& c) {
    if (went_on(c, tls->handshake(c.tls))) c.phase = Connection::Phase::reading;
  }

  // Reads what has arrived, never more than the head's limit plus one byte,
  // then never more than the body the head announced.
  void read_head(Connection& c) {
    const size_t limit = static_cast<size_t>(config.max_request_bytes);
    char buffer[4096];
    for (;;) {
      const size_t cap = c.head_end != 0 ? c.head_end + c.body_size : limit + 1;
      size_t room = std::min(sizeof(buffer), cap - c.in.size());
      size_t got = 0;
      const bool read = c.tls ? went_on(c, tls->read(c.tls, buffer, room, got))
                              : went_on(c, recv(c.fd, buffer, room, 0), POLLIN, got);
      if (!read) return;  // nothing more yet, or gone before asking anything
      c.in.append(buffer, got);
      if (c.head_end == 0) {
        size_t end = request_head_end(c.in);
        if (end != std::string::npos && end <= limit) {
          const int refused = server.body_size(std::string_view(c.in).substr(0, end), c.body_size);
          if (refused != 0)
            return answer(c, serialize_response(plain_response(refused, std::string(reason(refused)) + "\n"), false));
          c.head_end = end;
        } else if (c.in.size() > limit) {
          return answer(
              c, serialize_response(
                     plain_response(431, "the request head is over " + std::to_string(limit) + " bytes\n"), false));
        }
      }
      if (c.head_end != 0 && c.in.size() >= c.head_end + c.body_size) {
        const std::string_view in(c.in);
        return answer(c, server.respond(in.substr(0, c.head_end), std::string(in.substr(c.head_end, c.body_size)),
                                        c.remote_addr));
      }
    }
  }

  void answer(Connection& c, std::string bytes) {
    c.in.clear();
    c.in.shrink_to_fit();
    c.out = std::move(bytes);
    c.phase = Connection::Phase::writing;
    c.deadline = Clock::now() + timeout();
  }

  void write_answer(Connection& c) {
    while (c.sent < c.out.size()) {
      size_t put = 0;
      const char* rest = c.out.data() + c.sent;
      const size_t left = c.out.size() - c.sent;
      const bool wrote = c.tls ? went_on(c, tls->write(c.tls, rest, left, put))
                               : went_on(c, send(c.fd, rest, left, MSG_NOSIGNAL), POLLOUT, put);
      if (!wrote) return;
      c.sent += put;
      c.deadline = Clock::now() + timeout();  // progress: the next write gets the full time again
    }
    if (c.tls) {
      tls->close(c.tls);
      c.tls = nullptr;
    }
    shutdown(c.fd, SHUT_WR);
    c.out = std::string();
    c.phase = Connection::Phase::draining;
    c.waits_for = POLLIN;
    c.deadline = Clock::now() + std::min(timeout(), std::chrono::milliseconds(drain_time));
  }

  // Reads and drops at most 64 KiB a turn: a client that keeps sending
  // cannot hold the thread, only its own slot until the drain deadline.
  void drain(Connection& c) {
    char buffer[4096];
    size_t dropped = 0;
    for (int turn = 0; turn < 16; ++turn)
      if (!went_on(c, recv(c.fd, buffer, sizeof(buffer), 0), POLLIN, dropped)) return;  // drained, or closed
  }

  void close_now(Connection& c) {
    if (c.tls) tls->close(c.tls);
    c.tls = nullptr;
    if (c.fd >= 0) ::close(c.fd);
    c.fd = -1;
    c.phase = Connection::Phase::closed;
  }
};

std::unique_ptr<HttpServer> HttpServer::start(HttpServerConfig cfg, std::vector<HttpRoute> routes, std::string& error) {
  std::unique_ptr<HttpServer> server(new HttpServer());
  server->routes_ = std::move(routes);
  server->config_ = std::move(cfg);
  const HttpServerConfig& c = server->config_;
  server->loop_ = std::make_unique<Loop>(*server, c);
  Loop& loop = *server->loop_;
  const bool ipv6 = c.host.find(':') != std::string::npos;
  const std::string listen = (ipv6 ? "[" + c.host + "]" : c.host) + ":" + std::to_string(c.port);
  if (c.max_connections < 1 || c.max_request_bytes < 64 || c.request_timeout_ms < 1) {
    error = "the HTTP server's limits must be positive";
    return nullptr;
  }
  if (c.tls.enabled()) {
    if (c.tls.cert_file.empty() || c.tls.key_file.empty()) {
      error = "HTTPS needs both tls_cert_file and tls_key_file";
      return nullptr;
    }
    if (!valid_tls_min_version(c.tls.min_version)) {
      error = "tls_min_version must be 1.2 or 1.3";
      return nullptr;
    }
    loop.tls = TlsServer::create(c.tls, error);
    if (!loop.tls) {
      error = "HTTPS on " + listen + ": " + error;
      return nullptr;
    }
  }
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string port_text = std::to_string(c.port);
  int resolved = getaddrinfo(c.host.c_str(), port_text.c_str(), &hints, &found);
  if (resolved != 0 || found == nullptr) {
    error = "cannot listen on " + listen + ": " + (resolved != 0 ? gai_strerror(resolved) : "no such address");
    return nullptr;
  }
  int fd = socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int on = 1;
  bool listening = fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) == 0 &&
                   bind(fd, found->ai_addr, found->ai_addrlen) == 0 && ::listen(fd, c.listen_backlog) == 0;
  const int why = errno;
  freeaddrinfo(found);
  if (!listening) {
    if (fd >= 0) ::close(fd);
    error = "cannot listen on " + listen + ": " + std::strerror(why) +
            (why == EADDRINUSE ? " (is another process using the port?)" : "");
    return nullptr;
  }
  loop.listen_fd = fd;
  sockaddr_storage bound{};
  socklen_t len = sizeof(bound);
  getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  server->port_ = ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6&>(bound).sin6_port
                                                    : reinterpret_cast<sockaddr_in&>(bound).sin_port);
  loop.stop_fd = eventfd(0, EFD_CLOEXEC);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, server_stack_bytes);
  const int failed = loop.stop_fd < 0 ? errno : pthread_create(&loop.thread, &attr, &Loop::thread_main, &loop);
  pthread_attr_destroy(&attr);
  loop.running = failed == 0;
  if (!loop.running) {
    error = "cannot start the HTTP server's thread: " + std::string(std::strerror(failed));
    return nullptr;
  }
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

std::string HttpServer::respond(std::string_view head, std::string body, const std::string& remote_addr) const {
  RequestHead parsed;
  int refused = parse_request_head(head, parsed);
  if (refused != 0) return serialize_response(plain_response(refused, std::string(reason(refused)) + "\n"), false);
  HttpResponse resp;
  try {
    HttpRequest req;
    req.method = parsed.method;
    req.path = parsed.path;
    req.query = parsed.query;
    req.remote_addr = remote_addr;
    req.local = config_.is_local && config_.is_local(remote_addr);
    req.body = std::move(body);
    resp = route(req, parsed.has_authorization ? parsed.authorization.c_str() : nullptr);
  } catch (const std::exception& e) {
    log::debug("http handler failed: ", e.what());
    resp = plain_response(500, "internal error\n");
  } catch (...) {
    resp = plain_response(500, "internal error\n");
  }
  return serialize_response(resp, parsed.method == "HEAD");
}

HttpResponse HttpServer::route(const HttpRequest& req, const char* authorization) const {
  const Credentials& credentials = config_.credentials;
  if (!credentials.empty() && !credentials.accepts(authorization)) {
    HttpResponse resp{401, plain_content_type, "authentication required\n"};
    resp.headers.emplace_back("WWW-Authenticate", credentials.basic ? "Basic realm=\"jvmsight\", charset=\"UTF-8\""
                                                                    : "Bearer realm=\"jvmsight\"");
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
      return r.handler(req);
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
