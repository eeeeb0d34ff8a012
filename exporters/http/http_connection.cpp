#include "exporters/http/http_connection.h"

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "exporters/http/http_request.h"
#include "exporters/http/http_server.h"

namespace jvmsight {
namespace {

// After the answer, the client's remaining bytes are read and dropped before
// the close: closing with unread input would reset the connection and could
// discard the answer on its way. For at most this long...
constexpr std::chrono::milliseconds drain_time{1000};
// ... and at most this many bytes: a client streaming a body at the server
// costs it one bounded read, not a core (docs/SECURITY.md).
constexpr size_t drain_bytes = 64 * 1024;

}  // namespace

bool ConnectionSteps::open(HttpConnection& c, int fd) const {
  c.fd = fd;
  c.deadline = HttpClock::now() + timeout_;  // the whole request head, handshake included
  if (tls_ == nullptr) return true;
  c.tls = tls_->open(fd);
  c.phase = HttpConnection::Phase::handshake;
  return c.tls != nullptr;
}

void ConnectionSteps::advance(HttpConnection& c) const {
  // Polled for nothing while waiting: an event is a hang-up or an error.
  if (c.phase == HttpConnection::Phase::waiting) return close(c);
  if (c.phase == HttpConnection::Phase::handshake) handshake(c);
  if (c.phase == HttpConnection::Phase::reading) read_request(c);
  if (c.phase == HttpConnection::Phase::writing) write_answer(c);
  if (c.phase == HttpConnection::Phase::draining) drain(c);
}

// A TLS step's outcome: true to go on; else the socket event to wait for
// is set, or the connection is closed (not TLS, an untrusted certificate,
// an old version, a reset...).
bool ConnectionSteps::went_on(HttpConnection& c, TlsServer::Step step) const {
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
  close(c);
  return false;
}

// The same for a plain socket's recv() or send() (n bytes moved, or -1
// and errno): true with moved set; false when it must wait for `wait`
// (set) or the connection is over (closed).
bool ConnectionSteps::went_on(HttpConnection& c, ssize_t n, short wait, size_t& moved) const {
  if (n > 0) {
    moved = static_cast<size_t>(n);
    return true;
  }
  if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
    c.waits_for = wait;
    return false;
  }
  close(c);  // the peer closed (0), or the socket failed
  return false;
}

void ConnectionSteps::handshake(HttpConnection& c) const {
  if (went_on(c, tls_->handshake(c.tls))) c.phase = HttpConnection::Phase::reading;
}

// Reads what has arrived, never more than the head's limit plus one byte,
// then never more than the body the head announced.
void ConnectionSteps::read_request(HttpConnection& c) const {
  char buffer[4096];
  for (;;) {
    const size_t cap = c.head_end != 0 ? c.head_end + c.body_size : max_head_ + 1;
    size_t room = std::min(sizeof(buffer), cap - c.in.size());
    size_t got = 0;
    const bool read =
        c.tls ? went_on(c, tls_->read(c.tls, buffer, room, got)) : went_on(c, recv(c.fd, buffer, room, 0), POLLIN, got);
    if (!read) return;  // nothing more yet, or gone before asking anything
    c.in.append(buffer, got);
    std::string bytes = answer_for(c);
    if (c.later) {
      c.in = std::string();
      c.phase = HttpConnection::Phase::waiting;
      c.waits_for = 0;
      return;
    }
    if (!bytes.empty()) return answer(c, std::move(bytes));
  }
}

std::string ConnectionSteps::answer_for(HttpConnection& c) const {
  auto refuse = [](int status, std::string why) { return serialize_response(plain_response(status, why), false); };
  if (c.head_end == 0) {
    const size_t end = request_head_end(c.in);
    if (end == std::string::npos || end > max_head_) {
      if (c.in.size() <= max_head_) return "";
      return refuse(431, "the request head is over " + std::to_string(max_head_) + " bytes\n");
    }
    const int refused = answerer_.body_size(std::string_view(c.in).substr(0, end), c.body_size);
    if (refused != 0)
      return refuse(refused, refused == 411 ? "a body needs Content-Length\n" : "the body is too large\n");
    c.head_end = end;
  }
  if (c.in.size() < c.head_end + c.body_size) return "";
  const std::string_view in(c.in);
  return answerer_.respond(in.substr(0, c.head_end), std::string(in.substr(c.head_end, c.body_size)), c);
}

void ConnectionSteps::answer(HttpConnection& c, std::string bytes) const {
  c.in = std::string();
  c.out = std::move(bytes);
  c.phase = HttpConnection::Phase::writing;
  c.deadline = HttpClock::now() + timeout_;
}

void ConnectionSteps::write_answer(HttpConnection& c) const {
  while (c.sent < c.out.size()) {
    size_t put = 0;
    const char* rest = c.out.data() + c.sent;
    const size_t left = c.out.size() - c.sent;
    const bool wrote = c.tls ? went_on(c, tls_->write(c.tls, rest, left, put))
                             : went_on(c, send(c.fd, rest, left, MSG_NOSIGNAL), POLLOUT, put);
    if (!wrote) return;
    c.sent += put;
    c.deadline = HttpClock::now() + timeout_;  // progress: the next write gets the full time again
  }
  if (c.tls) {
    tls_->close(c.tls);
    c.tls = nullptr;
  }
  shutdown(c.fd, SHUT_WR);
  c.out = std::string();
  c.phase = HttpConnection::Phase::draining;
  c.waits_for = POLLIN;
  c.deadline = HttpClock::now() + std::min(timeout_, drain_time);
}

// Reads and drops what arrives until the client closes; past drain_bytes
// the connection is closed at once.
void ConnectionSteps::drain(HttpConnection& c) const {
  char buffer[4096];
  while (c.drained < drain_bytes) {
    size_t dropped = 0;
    if (!went_on(c, recv(c.fd, buffer, sizeof(buffer), 0), POLLIN, dropped)) return;  // drained, or closed
    c.drained += dropped;
  }
  close(c);
}

void ConnectionSteps::answer_later(HttpConnection& c) const {
  HttpResponse response;
  try {
    response = c.later->respond();
  } catch (...) {
    response = plain_response(500, "internal error\n");
  }
  c.later.reset();
  answer(c, serialize_response(response, c.head_only));
  write_answer(c);
}

void ConnectionSteps::close(HttpConnection& c) const {
  if (c.tls) tls_->close(c.tls);
  c.tls = nullptr;
  if (c.fd >= 0) ::close(c.fd);
  c.fd = -1;
  c.phase = HttpConnection::Phase::closed;
  c.later.reset();
}

}  // namespace jvmsight
