// The HTTP receiver: POST /v1/metrics, /v1/traces and /v1/logs with a
// binary protobuf body (gzip accepted), plain or TLS (OpenSSL, optionally
// requiring a client certificate), one request per connection
// (Connection: close), on its own accept thread, answering as scripted
// (otlp_receiver.h).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <thread>

#include "exporters/otlp/gzip.h"
#include "tests/otlp/receiver/otlp_receiver.h"

namespace jvmsight::test {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// One accepted connection, plain or TLS.
struct Connection {
  int fd = -1;
  SSL* ssl = nullptr;
  ssize_t read_some(char* buf, size_t n) { return ssl ? SSL_read(ssl, buf, static_cast<int>(n)) : read(fd, buf, n); }
  void write_all(const std::string& data) {
    if (ssl)
      SSL_write(ssl, data.data(), static_cast<int>(data.size()));
    else
      (void)!write(fd, data.data(), data.size());
  }
  // The client closed its side (gave up waiting).
  bool client_gone(int wait_ms) const {
    pollfd p{fd, POLLRDHUP, 0};
    return poll(&p, 1, wait_ms) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
  }
};

class HttpReceiver : public OtlpReceiver {
 public:
  explicit HttpReceiver(const TlsFiles* tls) {
    if (tls && !set_up_tls(*tls)) return;
    fd_ = listen_on_loopback(port_);
    if (fd_ < 0) return;
    thread_ = std::thread([this] { serve(); });
  }
  ~HttpReceiver() override {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    if (fd_ >= 0) close(fd_);
    if (ctx_) SSL_CTX_free(ctx_);
  }
  int port() const override { return port_; }

 private:
  bool set_up_tls(const TlsFiles& tls) {
    ctx_ = SSL_CTX_new(TLS_server_method());
    if (!ctx_ || SSL_CTX_use_certificate_chain_file(ctx_, tls.certificate.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx_, tls.key.c_str(), SSL_FILETYPE_PEM) != 1)
      return false;
    if (!tls.client_ca.empty()) {
      if (SSL_CTX_load_verify_locations(ctx_, tls.client_ca.c_str(), nullptr) != 1) return false;
      SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    tls_ = true;
    return true;
  }

  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      Connection c;
      c.fd = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
      if (c.fd < 0) continue;
      timeval tv{5, 0};
      setsockopt(c.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      if (ctx_) {
        c.ssl = SSL_new(ctx_);
        SSL_set_fd(c.ssl, c.fd);
        if (SSL_accept(c.ssl) == 1) handle(c);  // else: the handshake failed (e.g. no client certificate)
        SSL_shutdown(c.ssl);
        SSL_free(c.ssl);
      } else {
        handle(c);
      }
      close(c.fd);
    }
  }

  void handle(Connection& c) {
    std::string data;
    char buf[65536];
    size_t header_end;
    while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
      ssize_t n = c.read_some(buf, sizeof buf);
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
      ssize_t n = c.read_some(buf, sizeof buf);
      if (n <= 0) return;
      body.append(buf, static_cast<size_t>(n));
    }
    if (headers["content-encoding"] == "gzip") {
      std::string plain;
      if (!otlp::gunzip(body, plain, 64 << 20)) return reply(c, 400, "bad gzip");
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

    const auto delay = reply_delay();
    const auto started = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - started < delay) {
      if (c.client_gone(5)) {
        record_abandoned(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started));
        return;
      }
    }
    const std::string signal = r.signal;
    const Reply answer = record(std::move(r));
    const std::string retry_after = answer.retry_after.count() > 0
                                        ? "Retry-After: " + std::to_string(answer.retry_after.count() / 1000) + "\r\n"
                                        : "";
    switch (answer.kind) {
      case Reply::Kind::accept:
        return reply(c, 200, "");  // an empty Export*ServiceResponse: full success
      case Reply::Kind::partial:
        return reply(c, 200, partial_success(signal, answer));
      case Reply::Kind::unavailable:
        return reply(c, 503, "", retry_after);
      case Reply::Kind::throttled:
        return reply(c, 429, "", retry_after);
    }
  }

  static std::string partial_success(const std::string& signal, const Reply& answer) {
    std::string out;
    if (signal == "metrics") {
      opentelemetry::proto::collector::metrics::v1::ExportMetricsServiceResponse r;
      r.mutable_partial_success()->set_rejected_data_points(answer.rejected);
      r.mutable_partial_success()->set_error_message(answer.message);
      r.SerializeToString(&out);
    } else if (signal == "traces") {
      opentelemetry::proto::collector::trace::v1::ExportTraceServiceResponse r;
      r.mutable_partial_success()->set_rejected_spans(answer.rejected);
      r.mutable_partial_success()->set_error_message(answer.message);
      r.SerializeToString(&out);
    } else {
      opentelemetry::proto::collector::logs::v1::ExportLogsServiceResponse r;
      r.mutable_partial_success()->set_rejected_log_records(answer.rejected);
      r.mutable_partial_success()->set_error_message(answer.message);
      r.SerializeToString(&out);
    }
    return out;
  }

  static void reply(Connection& c, int status, const std::string& body, const std::string& extra_headers = "") {
    c.write_all("HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/x-protobuf\r\n" +
                extra_headers + "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
                body);
  }

  int fd_ = -1;
  int port_ = 0;
  SSL_CTX* ctx_ = nullptr;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

std::unique_ptr<OtlpReceiver> start_http_receiver(const TlsFiles* tls) {
  auto r = std::make_unique<HttpReceiver>(tls);
  return r->port() > 0 ? std::move(r) : nullptr;
}

}  // namespace jvmsight::test
