#pragma once
// The exporter server's thread: one poll() over the listening socket and
// every connection, accepting with the slot policy (slot_policy.h), each
// connection moved on by ConnectionSteps, within a CPU budget. It never
// stops for good: a failing call or an exception costs a pause and one log
// line, then the loop goes on (docs/SECURITY.md).
#include <pthread.h>

#include <memory>
#include <string>
#include <vector>

#include "exporters/http/cpu_budget.h"
#include "exporters/http/http_connection.h"
#include "exporters/http/http_server.h"
#include "exporters/http/slot_policy.h"

namespace jvmsight {

class ServerLoop {
 public:
  // Takes the listening socket and starts the thread; null and error set
  // when it cannot. config must outlive the loop.
  static std::unique_ptr<ServerLoop> start(int listen_fd, std::unique_ptr<TlsServer> tls,
                                           const HttpServerConfig& config, const RequestAnswerer& answerer,
                                           std::string& error);
  ~ServerLoop();  // stops the thread, closes every socket
  ServerLoop(const ServerLoop&) = delete;
  ServerLoop& operator=(const ServerLoop&) = delete;

 private:
  ServerLoop(int listen_fd, std::unique_ptr<TlsServer> tls, const HttpServerConfig& config,
             const RequestAnswerer& answerer);
  static void* thread_main(void* self);
  void run() noexcept;
  bool turn();  // false once stopped
  void step(HttpConnection& c) noexcept;
  void wake(HttpConnection& c) noexcept;
  void accept_some();
  void admit(int fd, const sockaddr_storage& addr);
  void reap_answered();
  void free_a_slot();
  void sweep();
  void pause(std::chrono::milliseconds how_long) const;
  template <class... Parts>
  void trouble(const Parts&... parts) noexcept;

  const HttpServerConfig& config_;
  int listen_fd_;
  int stop_fd_ = -1;
  std::unique_ptr<TlsServer> tls_;
  ConnectionSteps steps_;
  std::vector<HttpConnection> connections_;
  std::vector<pollfd> fds_;
  std::vector<SlotHolder> holders_;
  uint64_t accepted_ = 0;
  HttpClock::time_point accept_paused_until_{};
  HttpClock::time_point last_trouble_{};
  CpuBudget cpu_;
  pthread_t thread_{};
  bool running_ = false;
};

}  // namespace jvmsight
