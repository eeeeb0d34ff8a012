#pragma once
// One accepted connection of the exporter's server and the steps that move
// it on: TLS handshake, reading the request head, writing the answer,
// draining what the client still sends. Non-blocking: each step goes as far
// as the socket allows and says what it waits for. Runs on the server's
// thread only (server_loop.cpp).
#include <poll.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "exporters/http/http_server.h"
#include "exporters/http/tls.h"

namespace jvmsight {

using HttpClock = std::chrono::steady_clock;
class DeferredResponse;  // http_server.h

struct HttpConnection {
  // waiting: the route answers at the deadline (DeferredResponse).
  enum class Phase { handshake, reading, waiting, writing, draining, closed };
  int fd = -1;
  std::string remote_addr;
  std::string group;    // address_group(remote_addr): who holds how many slots
  bool local = false;   // from loopback, to loopback (HttpRequest::local)
  uint64_t number = 0;  // in the order accepted: lower is older
  TlsServer::Session* tls = nullptr;
  Phase phase = Phase::reading;
  short waits_for = POLLIN;  // what the last step needs of the socket (TLS may need either way)
  std::string in;            // the request head so far, then its body
  size_t head_end = 0;       // where the head ends in `in`, once it has
  size_t body_size = 0;      // the body's bytes after it
  std::string out;           // the answer
  size_t sent = 0;
  size_t drained = 0;  // bytes read and dropped after the answer
  HttpClock::time_point deadline;
  std::shared_ptr<DeferredResponse> later;  // waiting: what answers at the deadline
  bool head_only = false;                   // waiting: the request was HEAD

  // No answer yet: a slot the client may be holding on purpose.
  bool unfinished() const { return phase == Phase::handshake || phase == Phase::reading || phase == Phase::waiting; }
};

// The steps, with what they need from the server.
class ConnectionSteps {
 public:
  // answerer: what the server makes of a request (HttpServer).
  ConnectionSteps(TlsServer* tls, size_t max_head_bytes, std::chrono::milliseconds timeout,
                  const RequestAnswerer& answerer)
      : tls_(tls), max_head_(max_head_bytes), timeout_(timeout), answerer_(answerer) {}

  // A freshly accepted socket: its phase, session and deadline. False (and
  // the socket left to the caller) when OpenSSL gives no session.
  bool open(HttpConnection& c, int fd) const;
  // Goes as far as the socket allows now; may close the connection.
  void advance(HttpConnection& c) const;
  void close(HttpConnection& c) const;
  // A waiting connection's time is up: its deferred answer, then writing.
  void answer_later(HttpConnection& c) const;

 private:
  bool went_on(HttpConnection& c, TlsServer::Step step) const;
  bool went_on(HttpConnection& c, ssize_t n, short wait, size_t& moved) const;
  void handshake(HttpConnection& c) const;
  void read_request(HttpConnection& c) const;
  // The answer's bytes once the head or the whole request is in; "" to read on.
  std::string answer_for(HttpConnection& c) const;
  void answer(HttpConnection& c, std::string bytes) const;
  void write_answer(HttpConnection& c) const;
  void drain(HttpConnection& c) const;

  TlsServer* tls_;
  size_t max_head_;
  std::chrono::milliseconds timeout_;
  const RequestAnswerer& answerer_;
};

}  // namespace jvmsight
