#include "tests/hostile/attacker.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>

namespace jvmsight::test {
namespace {

using Clock = Attacker::Clock;
using Slot = Attacker::Slot;

// A non-blocking connect from source to 127.0.0.1:port; -1 when refused now.
int open_from(const std::string& source, int port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int on = 1;
  setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &on, sizeof(on));
  sockaddr_in src{}, dst{};
  src.sin_family = dst.sin_family = AF_INET;
  inet_pton(AF_INET, source.c_str(), &src.sin_addr);
  dst.sin_port = htons(static_cast<uint16_t>(port));
  dst.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, reinterpret_cast<sockaddr*>(&src), sizeof(src)) != 0 ||
      (connect(fd, reinterpret_cast<sockaddr*>(&dst), sizeof(dst)) != 0 && errno != EINPROGRESS)) {
    close(fd);
    return -1;
  }
  return fd;
}

// Closing with a reset: no TIME_WAIT left on either side, however often
// the attacker reconnects.
void reset(int fd) {
  linger now{1, 0};
  setsockopt(fd, SOL_SOCKET, SO_LINGER, &now, sizeof(now));
  close(fd);
}

void send_opening(const Slot& s) {
  static const char trickle[] = "GET /metrics HTTP/1.1\r\nX-Slow: ";
  static const char partial[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nUser-Agent: y\r\n";
  static const char hold[] = "GET /debug/pprof/mutex?seconds=300 HTTP/1.1\r\nHost: x\r\n\r\n";
  static const char post[] = "POST /metrics HTTP/1.1\r\nContent-Length: 1000000000000\r\n\r\n";
  // A TLS record header for a handshake of 512 bytes, and its first bytes.
  static const char hello[] = "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03";
  switch (s.harm) {
    case Harm::silent:
    case Harm::churn:
      return;
    case Harm::body:
      (void)!send(s.fd, post, sizeof(post) - 1, MSG_NOSIGNAL);
      return;
    case Harm::trickle:
      (void)!send(s.fd, trickle, sizeof(trickle) - 1, MSG_NOSIGNAL);
      return;
    case Harm::partial_head:
      (void)!send(s.fd, partial, sizeof(partial) - 1, MSG_NOSIGNAL);
      return;
    case Harm::tls_stall:
      (void)!send(s.fd, hello, sizeof(hello) - 1, MSG_NOSIGNAL);
      return;
    case Harm::profile_hold:
      (void)!send(s.fd, hold, sizeof(hold) - 1, MSG_NOSIGNAL);
      return;
  }
}

}  // namespace

Attacker::Attacker(std::string source, int port, int connections, std::vector<Harm> harms)
    : source_(std::move(source)), port_(port), connections_(connections), harms_(std::move(harms)) {
  thread_ = std::thread([this] { run(); });
}

Attacker::~Attacker() { stop(); }

void Attacker::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

// Connects, trickles and says what to wait for, one slot.
short Attacker::prepare(Slot& s, Clock::time_point now) const {
  if (s.fd < 0 && now >= s.next) {
    s.fd = open_from(source_, port_);
    s.connected = false;
    if (s.fd < 0) s.next = now + std::chrono::milliseconds(50);  // no port or descriptor now: soon again
  }
  if (s.connected && s.harm == Harm::trickle && now >= s.next) {
    (void)!send(s.fd, "a", 1, MSG_NOSIGNAL);
    s.next = now + std::chrono::seconds(1);
  }
  return !s.connected ? POLLOUT : s.harm == Harm::body ? POLLIN | POLLOUT : POLLIN;
}

// What poll() said of one slot: connected, streaming, or dropped (then
// reconnected at once).
void Attacker::handle(Slot& s, short got) {
  if (!s.connected) {
    int error = 0;
    socklen_t len = sizeof(error);
    if ((got & POLLOUT) && getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &len) == 0 && error == 0) {
      ++connects_;
      if (s.harm != Harm::churn) {
        s.connected = true;
        ++open_;
        send_opening(s);
        s.next = Clock::now() + std::chrono::seconds(1);
        return;
      }
    }
    reset(s.fd);  // refused, or churning: at once again
    s.fd = -1;
    return;
  }
  static const std::string chunk(65536, 'x');
  bool gone = false;
  if (s.harm == Harm::body && (got & POLLOUT))
    gone = send(s.fd, chunk.data(), chunk.size(), MSG_NOSIGNAL) < 0 && errno != EAGAIN;
  char buf[4096];
  if (!gone && (got & (POLLIN | POLLHUP | POLLERR))) {
    const ssize_t n = recv(s.fd, buf, sizeof(buf), MSG_DONTWAIT);
    gone = n == 0 || (n < 0 && errno != EAGAIN);
  }
  if (!gone) return;
  ++dropped_;
  --open_;
  reset(s.fd);  // the server closed it: at once again
  s.fd = -1;
  s.next = Clock::now();
}

void Attacker::run() {
  std::vector<Slot> slots(static_cast<size_t>(connections_));
  for (size_t i = 0; i < slots.size(); ++i) slots[i].harm = harms_[i % harms_.size()];
  std::vector<pollfd> fds(slots.size());
  while (!stop_) {
    const auto now = Clock::now();
    for (size_t i = 0; i < slots.size(); ++i) fds[i] = {slots[i].fd, prepare(slots[i], now), 0};
    if (poll(fds.data(), fds.size(), 50) <= 0) continue;
    for (size_t i = 0; i < slots.size(); ++i)
      if (slots[i].fd >= 0 && fds[i].revents != 0) handle(slots[i], fds[i].revents);
  }
  for (auto& s : slots)
    if (s.fd >= 0) reset(s.fd);
  open_ = 0;
}

long raise_fd_limit(long n) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  if (limit.rlim_cur < static_cast<rlim_t>(n)) {
    limit.rlim_cur = std::min(limit.rlim_max, static_cast<rlim_t>(n));
    setrlimit(RLIMIT_NOFILE, &limit);
  }
  getrlimit(RLIMIT_NOFILE, &limit);
  return static_cast<long>(limit.rlim_cur);
}

}  // namespace jvmsight::test
