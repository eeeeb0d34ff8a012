#pragma once
// Hostile clients for the server tests: up to n connections from one source
// address, each doing one kind of harm and reconnecting as soon as the
// server drops it, on a thread of their own until stopped. Loopback only,
// bounded by the connection count and the caller's run time.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace jvmsight::test {

enum class Harm {
  silent,        // connects and sends nothing
  trickle,       // a request line, then one header byte a second, never ending
  partial_head,  // most of a request head, then nothing
  tls_stall,     // the first bytes of a TLS ClientHello, then nothing
  churn,         // connects and closes at once, again and again (bench)
  body,          // a POST announcing a huge body, streamed as fast as it goes (bench)
  profile_hold,  // a whole request for a 300 s profile delta, then waits for it
};

class Attacker {
 public:
  // harms[i % harms.size()] for connection i.
  Attacker(std::string source, int port, int connections, std::vector<Harm> harms);
  ~Attacker();  // stops
  void stop();
  long connects() const { return connects_; }
  long dropped() const { return dropped_; }  // connections the server closed
  long open_now() const { return open_; }    // connected at this moment

  using Clock = std::chrono::steady_clock;
  struct Slot {
    int fd = -1;
    Harm harm = Harm::silent;
    bool connected = false;
    Clock::time_point next{};  // the next trickled byte, or the next try to connect
  };

 private:
  void run();
  short prepare(Slot& s, Clock::time_point now) const;
  void handle(Slot& s, short got);
  std::string source_;
  int port_;
  int connections_;
  std::vector<Harm> harms_;
  std::atomic<bool> stop_{false};
  std::atomic<long> connects_{0}, dropped_{0}, open_{0};
  std::thread thread_;
};

// Sets RLIMIT_NOFILE's soft limit to at least n (up to the hard limit);
// returns what it is now.
long raise_fd_limit(long n);

}  // namespace jvmsight::test
