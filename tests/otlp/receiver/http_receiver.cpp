// The HTTP receiver: POST /v1/metrics, /v1/traces and /v1/logs with a
// binary protobuf body (gzip accepted), one request per connection (Connection: close), on its own
// accept thread.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cctype>
#include <thread>

#include "tests/otlp/receiver/otlp_receiver.h"

namespace jvmsight::test {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool gunzip(const std::string& in, std::string& out) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return false;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  char buf[65536];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END;
}

class HttpReceiver : public OtlpReceiver {
 public:
  HttpReceiver() {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return;
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~HttpReceiver() override {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    close(fd_);
  }
  int port() const override { return port_; }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c < 0) continue;
      timeval tv{5, 0};
      setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      handle(c);
      close(c);
    }
  }

  void handle(int c) {
    std::string data;
    char buf[65536];
    size_t header_end;
    while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = read(c, buf, sizeof buf);
      if (n <= 0) return;
      data.append(buf, static_cast<size_t>(n));
    }
    std::map<std::string, std::string> headers;
    std::string head = data.substr(0, header_end);
    std::string request_line = head.substr(0, head.find("\r\n"));
    size_t pos = head.find("\r\n");
    while (pos != std::string::npos && pos < head.size()) {
      size_t next = head.find("\r\n", pos + 2);
      std::string line = head.substr(pos + 2, next == std::string::npos ? std::string::npos : next - pos - 2);
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        headers[lower(line.substr(0, colon))] = line.substr(line.find_first_not_of(' ', colon + 1));
      pos = next;
    }
    size_t length = headers.count("content-length") ? std::stoul(headers["content-length"]) : 0;
    std::string body = data.substr(header_end + 4);
    while (body.size() < length) {
      ssize_t n = read(c, buf, sizeof buf);
      if (n <= 0) return;
      body.append(buf, static_cast<size_t>(n));
    }
    if (headers["content-encoding"] == "gzip") {
      std::string plain;
      if (!gunzip(body, plain)) return reply(c, 400, "bad gzip");
      body.swap(plain);
    }
    Received r;
    bool parsed = false;
    if (request_line.rfind("POST /v1/metrics ", 0) == 0) {
      r.signal = "metrics";
      parsed = r.request.ParseFromString(body);
    } else if (request_line.rfind("POST /v1/traces ", 0) == 0) {
      r.signal = "traces";
      parsed = r.traces.ParseFromString(body);
    } else if (request_line.rfind("POST /v1/logs ", 0) == 0) {
      r.signal = "logs";
      parsed = r.logs.ParseFromString(body);
    } else {
      return reply(c, 404, "");
    }
    if (headers["content-type"] != "application/x-protobuf" || !parsed) return reply(c, 400, "bad body");
    r.headers = headers;
    if (!record(std::move(r))) return reply(c, 503, "");
    reply(c, 200, "");  // an empty Export*ServiceResponse: full success
  }

  static void reply(int c, int status, const std::string& body) {
    std::string r = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/x-protobuf\r\n" +
                    "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
    (void)!write(c, r.data(), r.size());
  }

  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

std::unique_ptr<OtlpReceiver> start_http_receiver() {
  auto r = std::make_unique<HttpReceiver>();
  return r->port() > 0 ? std::move(r) : nullptr;
}

}  // namespace jvmsight::test
