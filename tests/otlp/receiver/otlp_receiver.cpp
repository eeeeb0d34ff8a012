#include "tests/otlp/receiver/otlp_receiver.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

namespace jvmsight::test {

int listen_on_loopback(int& port) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 16) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  port = ntohs(a.sin_port);
  return fd;
}

void OtlpReceiver::fail_next(int n) {
  script(std::vector<Reply>(static_cast<size_t>(n), Reply::refused(Reply::Kind::unavailable)));
}

void OtlpReceiver::script(std::vector<Reply> replies) {
  std::lock_guard<std::mutex> lock(mutex_);
  script_ = std::move(replies);
  std::reverse(script_.begin(), script_.end());  // popped from the back
}

void OtlpReceiver::set_reply_delay(std::chrono::milliseconds delay) {
  std::lock_guard<std::mutex> lock(mutex_);
  delay_ = delay;
}

std::chrono::milliseconds OtlpReceiver::reply_delay() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return delay_;
}

void OtlpReceiver::record_abandoned(std::chrono::milliseconds waited) {
  std::lock_guard<std::mutex> lock(mutex_);
  abandoned_.push_back(waited);
  changed_.notify_all();
}

std::vector<std::chrono::milliseconds> OtlpReceiver::abandoned() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return abandoned_;
}

std::vector<std::chrono::steady_clock::time_point> OtlpReceiver::refused_at() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return refused_at_;
}

std::vector<Received> OtlpReceiver::received(const std::string& signal) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Received> out;
  for (const auto& r : received_)
    if (r.signal == signal) out.push_back(r);
  return out;
}

size_t OtlpReceiver::failures_answered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return failures_;
}

size_t OtlpReceiver::partials_answered() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return partials_;
}

bool OtlpReceiver::wait_for_more_than(size_t count, std::chrono::milliseconds timeout,
                                      const std::string& signal) const {
  std::unique_lock<std::mutex> lock(mutex_);
  return changed_.wait_for(lock, timeout, [&] {
    return static_cast<size_t>(std::count_if(received_.begin(), received_.end(),
                                             [&](const Received& r) { return r.signal == signal; })) > count;
  });
}

Reply OtlpReceiver::record(Received received) {
  std::lock_guard<std::mutex> lock(mutex_);
  Reply reply;
  if (!script_.empty()) {
    reply = script_.back();
    script_.pop_back();
  }
  received.at = std::chrono::steady_clock::now();
  if (reply.kind == Reply::Kind::unavailable || reply.kind == Reply::Kind::throttled) {
    ++failures_;
    refused_at_.push_back(received.at);
    return reply;
  }
  if (reply.kind == Reply::Kind::partial) ++partials_;
  received_.push_back(std::move(received));
  changed_.notify_all();
  return reply;
}

}  // namespace jvmsight::test
