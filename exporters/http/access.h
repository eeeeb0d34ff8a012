#pragma once
// Who may call which endpoint: credentials for every endpoint, and the
// detail endpoints (/threads, /deadlocks: names and stacks, each a
// stop-the-world dump) kept to local clients or rate-limited for others.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace jvmsight {

// 127.0.0.0/8, ::1 and ::ffff:127.x.y.z, as the server writes a client's
// address (HttpRequest::remote_addr).
bool is_loopback_address(const std::string& remote_addr);

// At most one answer per interval, shared by every client and every route
// that holds the same limit. Lock-free: callers on any thread may race.
class DumpRateLimit {
 public:
  using Clock = std::function<int64_t()>;  // monotonic nanoseconds
  explicit DumpRateLimit(std::chrono::nanoseconds interval = std::chrono::seconds(1), Clock clock = {});
  // True: go ahead (and the next one waits an interval). False: too soon.
  bool try_acquire();
  std::chrono::nanoseconds interval() const { return std::chrono::nanoseconds(interval_ns_); }

 private:
  int64_t interval_ns_;
  Clock clock_;
  std::atomic<int64_t> next_allowed_ns_{INT64_MIN};
};

// The Authorization header values the server accepts, read from files named
// by options (never the command line, which `ps` and `jcmd VM.command_line`
// show). Empty: no authentication.
struct Credentials {
  std::vector<std::string> authorizations;  // "Basic <base64(user:password)>", "Bearer <token>"
  bool basic = false;                       // what a 401 asks for: Basic,
  bool bearer = false;                      // Bearer, or both
  bool empty() const { return authorizations.empty(); }
  // The scheme in any case ("bearer", "BASIC"), then the credentials;
  // constant-time in the header's content: a wrong guess learns nothing from timing.
  bool accepts(const char* authorization_header) const;
};

// Reads basic_auth_file (one "user:password" per line; blank lines and
// lines starting with '#' skipped) and bearer_token_file (one token line),
// either may be "". Returns "" or one sentence saying what is wrong; a
// warning (e.g. readable by others) goes to warning.
std::string read_credentials(const std::string& basic_auth_file, const std::string& bearer_token_file, Credentials& out,
                             std::string& warning);

std::string base64(const std::string& bytes);

}  // namespace jvmsight
