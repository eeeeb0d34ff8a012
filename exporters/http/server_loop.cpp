#include "exporters/http/server_loop.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>

#include "common/log.h"

namespace jvmsight {
namespace {

// The thread's stack: handlers render reports here, nothing recursive.
constexpr size_t server_stack_bytes = 256 * 1024;
// accept() or poll() failing (no descriptors, no memory...): try again after
// this, instead of spinning on a socket that stays readable.
constexpr std::chrono::milliseconds failure_pause{100};
// An exception that escaped a turn: the loop starts over after this.
constexpr std::chrono::milliseconds restart_pause{1000};
// One log line per spell of trouble: again only after this much quiet.
constexpr std::chrono::seconds trouble_quiet{60};

std::string address_text(const sockaddr_storage& addr) {
  char text[INET6_ADDRSTRLEN] = {0};
  if (addr.ss_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(addr).sin_addr, text, sizeof(text));
  else if (addr.ss_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(addr).sin6_addr, text, sizeof(text));
  return text;
}

// Where the client connected to: a sidecar's forward to the pod's address
// comes from loopback but arrives at a non-loopback address.
bool made_to_loopback(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof(addr);
  return getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0 && is_loopback_address(address_text(addr));
}

int poll_timeout(HttpClock::time_point now, HttpClock::time_point until) {
  if (until == HttpClock::time_point::max()) return -1;
  if (until <= now) return 0;
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count() + 1;
  return static_cast<int>(std::min<long long>(ms, 60000));
}

int64_t clock_ns(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

// Closes an accepted socket unless a connection took it.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

ServerLoop::ServerLoop(int listen_fd, std::unique_ptr<TlsServer> tls, const HttpServerConfig& config,
                       const RequestAnswerer& answerer)
    : config_(config),
      listen_fd_(listen_fd),
      tls_(std::move(tls)),
      steps_(tls_.get(), static_cast<size_t>(config.max_request_bytes),
             std::chrono::milliseconds(config.request_timeout_ms), answerer),
      cpu_(config.cpu_percent) {
  // Room for every slot and a newcomer: the loop never grows these, so it
  // goes on when memory runs out.
  const size_t slots = static_cast<size_t>(config.max_connections) + 1;
  connections_.reserve(slots);
  fds_.reserve(slots + 2);
  holders_.reserve(slots);
}

std::unique_ptr<ServerLoop> ServerLoop::start(int listen_fd, std::unique_ptr<TlsServer> tls,
                                              const HttpServerConfig& config, const RequestAnswerer& answerer,
                                              std::string& error) {
  std::unique_ptr<ServerLoop> loop(new ServerLoop(listen_fd, std::move(tls), config, answerer));
  loop->stop_fd_ = eventfd(0, EFD_CLOEXEC);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, server_stack_bytes);
  const int failed = loop->stop_fd_ < 0 ? errno : pthread_create(&loop->thread_, &attr, &thread_main, loop.get());
  pthread_attr_destroy(&attr);
  loop->running_ = failed == 0;
  if (loop->running_) return loop;
  error = "cannot start the HTTP server's thread: " + std::string(std::strerror(failed));
  return nullptr;
}

ServerLoop::~ServerLoop() {
  if (running_) {
    uint64_t one = 1;
    if (write(stop_fd_, &one, sizeof(one)) == sizeof(one)) pthread_join(thread_, nullptr);
  }
  for (auto& c : connections_) steps_.close(c);
  if (listen_fd_ >= 0) ::close(listen_fd_);
  if (stop_fd_ >= 0) ::close(stop_fd_);
}

void* ServerLoop::thread_main(void* self) {
  pthread_setname_np(pthread_self(), "jvmsight-http");
  // A write to a socket the client closed returns EPIPE here instead of
  // raising SIGPIPE in a process that may not ignore it.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  static_cast<ServerLoop*>(self)->run();  // catches everything: nothing crosses into C
  return nullptr;
}

void ServerLoop::run() noexcept {
  for (;;) {
    try {
      if (!turn()) return;  // stopped
    } catch (const std::exception& e) {
      trouble("a turn failed (", e.what(), ")");
      pause(restart_pause);
    } catch (...) {
      trouble("a turn failed");
      pause(restart_pause);
    }
  }
}

template <class... Parts>
void ServerLoop::trouble(const Parts&... parts) noexcept {
  const auto now = HttpClock::now();
  const bool quiet_before = last_trouble_ == HttpClock::time_point{} || now - last_trouble_ >= trouble_quiet;
  last_trouble_ = now;
  if (!quiet_before) return;
  try {
    log::warn("http server: ", parts..., "; it serves on (next such warning after a minute of quiet)");
  } catch (...) {  // no memory even for the line: a fixed one
    static const char line[] = "jvmsight: warning: http server: out of memory; it serves on\n";
    if (log::enabled(log::Level::warn)) (void)!::write(2, line, sizeof(line) - 1);
  }
}

void ServerLoop::pause(std::chrono::milliseconds how_long) const {
  pollfd stop{stop_fd_, POLLIN, 0};  // a stop ends the pause; the next turn sees it
  ::poll(&stop, 1, static_cast<int>(how_long.count()));
}

bool ServerLoop::turn() {
  const auto now = HttpClock::now();
  const bool accepting = now >= accept_paused_until_;
  auto until = accepting ? HttpClock::time_point::max() : accept_paused_until_;
  fds_.clear();
  fds_.push_back({stop_fd_, POLLIN, 0});
  fds_.push_back({accepting ? listen_fd_ : -1, POLLIN, 0});
  for (const auto& c : connections_) {
    fds_.push_back({c.fd, c.waits_for, 0});
    until = std::min(until, c.deadline);
  }
  const int ready = config_.calls.poll(fds_.data(), fds_.size(), poll_timeout(now, until));
  if (ready < 0) {
    const int why = errno;
    if (why == EINTR) return true;
    trouble("poll failed (", std::strerror(why), ")");
    pause(failure_pause);
    return true;
  }
  if (ready > 0 && fds_[0].revents != 0) return false;
  const size_t polled = connections_.size();
  for (size_t i = 0; ready > 0 && i < polled; ++i)
    if (fds_[i + 2].revents != 0) step(connections_[i]);
  if (ready > 0 && fds_[1].revents != 0) accept_some();
  sweep();
  const auto owed = cpu_.pause_due(clock_ns(CLOCK_THREAD_CPUTIME_ID), clock_ns(CLOCK_MONOTONIC));
  if (owed.count() > 0) pause(owed);
  return true;
}

// One connection's step; whatever it throws (no memory for the request or
// the answer...) ends that connection only.
void ServerLoop::step(HttpConnection& c) noexcept {
  try {
    steps_.advance(c);
  } catch (const std::exception& e) {
    trouble("a connection failed (", e.what(), ")");
    steps_.close(c);
  } catch (...) {
    trouble("a connection failed");
    steps_.close(c);
  }
}

// A deferred answer's time is up; as step, a failure ends that connection only.
void ServerLoop::wake(HttpConnection& c) noexcept {
  try {
    steps_.answer_later(c);
  } catch (...) {
    trouble("a deferred answer failed");
    steps_.close(c);
  }
}

// At most a slot table's worth a turn, so the connections already in get
// their turn too under a flood of connects.
void ServerLoop::accept_some() {
  for (int i = 0; i < config_.max_connections; ++i) {
    sockaddr_storage addr{};
    socklen_t len = sizeof(addr);
    const int fd =
        config_.calls.accept(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd >= 0) {
      admit(fd, addr);
      continue;
    }
    const int why = errno;
    if (why == EAGAIN || why == EWOULDBLOCK) return;    // none left
    if (why == EINTR || why == ECONNABORTED) continue;  // that client is gone
    // No descriptors, no memory, or worse: pause accepting, not the rest.
    trouble("cannot accept a connection (", std::strerror(why), ")");
    accept_paused_until_ = HttpClock::now() + failure_pause;
    return;
  }
}

void ServerLoop::admit(int fd, const sockaddr_storage& addr) {
  FdGuard guard{fd};
  HttpConnection c;
  c.remote_addr = address_text(addr);
  c.group = address_group(c.remote_addr);
  c.local = made_to_loopback(fd) && config_.is_local && config_.is_local(c.remote_addr);
  c.number = ++accepted_;
  int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof(on));
  const auto full = [&] { return connections_.size() >= static_cast<size_t>(config_.max_connections); };
  if (full()) reap_answered();  // slots closed this turn, or by clients since the last poll, are free already
  if (full()) free_a_slot();
  if (!steps_.open(c, fd)) return;  // OpenSSL gave no session: the guard closes the socket
  guard.fd = -1;
  connections_.push_back(std::move(c));  // within the reserved room: cannot throw
  step(connections_.back());             // the request is often there already
}

// A client that reconnects the moment it has its answer comes round many
// times within one turn of accepts, before poll reports that it closed the
// connections already answered; left in the table, those would fill it and
// make the slot policy drop a newcomer. Draining them (a non-blocking read
// that sees the close) frees their slots first.
void ServerLoop::reap_answered() {
  for (auto& c : connections_)
    if (c.phase == HttpConnection::Phase::draining) step(c);
  sweep();
}

void ServerLoop::free_a_slot() {
  holders_.clear();
  for (const auto& c : connections_)
    holders_.push_back({c.group, c.unfinished() ? 0 : c.phase == HttpConnection::Phase::draining ? 1 : 2, c.number});
  auto victim = connections_.begin() + static_cast<std::ptrdiff_t>(slot_to_free(holders_));
  steps_.close(*victim);
  connections_.erase(victim);
}

void ServerLoop::sweep() {
  const auto now = HttpClock::now();
  for (auto& c : connections_) {
    if (c.phase == HttpConnection::Phase::waiting && now >= c.deadline)
      wake(c);
    else if (c.phase != HttpConnection::Phase::closed && now >= c.deadline)
      steps_.close(c);  // too slow, or drained
  }
  connections_.erase(std::remove_if(connections_.begin(), connections_.end(),
                                    [](const HttpConnection& c) { return c.phase == HttpConnection::Phase::closed; }),
                     connections_.end());
}

}  // namespace jvmsight
